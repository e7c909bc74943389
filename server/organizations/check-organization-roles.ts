import { ConfigError } from '../config/config-error.js';
import type { Executor } from '../db/repositories/executor.js';
import { findRolesBySlug } from '../db/repositories/roles.js';
import type { OrganizationSettings } from './draft-organization.js';

/**
 * Fails closed at start-up: every role a new organization starts with exists, so creating an
 * organization never fails for a setup fault the operator could have been told of.
 */
export async function checkOrganizationRoles(db: Executor, { organizationRoles }: OrganizationSettings): Promise<void> {
  const slugs = Object.keys(organizationRoles);
  const found = new Set((await findRolesBySlug(db, slugs)).map((role) => role.slug));
  const missing = slugs.filter((slug) => !found.has(slug));
  if (missing.length > 0) {
    throw new ConfigError(`organizationRoles names ${missing.join(', ')}, missing from the roles table: create ${missing.length > 1 ? 'them' : 'it'} with gatehouse role create <slug>.`);
  }
}
