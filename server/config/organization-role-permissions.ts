import { isValidPermission } from '@gatehouse/engine';
import { ConfigError } from '../errors/config-error.js';
import type { ModelRegistry } from '../models/model-registry.js';
import { undeclaredConditions } from '../permissions/declared-conditions.js';
import { invalidPermissionMessage } from '../permissions/invalid-permission-message.js';

type OrganizationRoles = Readonly<Record<string, readonly string[]>>;

const field = (role: string) => `organizationRoles.${role}`;

/**
 * The config's starting roles hold permission strings as the roles API does, refused with the
 * API's message at start-up: stored unchecked, every new organization would carry the fault.
 */
export function assertRolePermissionStrings(roles: OrganizationRoles): void {
  for (const [role, permissions] of Object.entries(roles)) {
    const malformed = permissions.find((permission) => !isValidPermission(permission));
    if (malformed !== undefined) throw new ConfigError(invalidPermissionMessage(field(role), malformed));
  }
}

/**
 * The starting roles' conditioned permissions name conditions the models' policies declare, as
 * the roles API requires. Without registered models (no `data`, or `dataRoutes` of its own) there
 * is nothing to check them against.
 */
export function assertRoleConditions(roles: OrganizationRoles, models: ModelRegistry | undefined): void {
  if (models === undefined) return;
  const byField = Object.fromEntries(Object.entries(roles).map(([role, permissions]) => [field(role), permissions]));
  const [fault] = Object.entries(undeclaredConditions(models.conditions, byField));
  if (fault !== undefined) throw new ConfigError(`${fault[0]}: ${fault[1][0]}`);
}
