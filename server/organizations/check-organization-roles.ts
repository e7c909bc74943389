import { ConfigError } from '../errors/config-error.js';
import type { Executor } from '../db/repositories/executor.js';
import { findStartingRoles, type OrganizationSettings } from './draft-organization.js';
import { gatehouseCommand } from '../errors/gatehouse-command.js';

/**
 * Fails closed at start-up: every role a new organization starts with exists, so creating an
 * organization never fails for a setup fault the operator could have been told of.
 */
export async function checkOrganizationRoles(db: Executor, settings: OrganizationSettings): Promise<void> {
  const { missing } = await findStartingRoles(db, settings);
  if (missing.length > 0) {
    throw new ConfigError(`organizationRoles names ${missing.join(', ')}, missing from the roles table: create ${missing.length > 1 ? 'them' : 'it'} with ${gatehouseCommand('role create <slug>')}.`);
  }
}
