import { appendAuditLog } from '../db/repositories/audit-logs.js';
import { setRolePermissions, type RoleRecord } from '../db/repositories/roles.js';
import type { TenantTransaction } from '../db/transactions/tenant-transaction.js';
import { AccessDeniedError } from '../errors/access-denied-error.js';

/** The owner role keeps its permissions, so an organization can never lose its owners' reach. */
export function assertNotOwnerRole(role: RoleRecord, ownerRole: string): void {
  if (role.slug === ownerRole) throw new AccessDeniedError(`The permissions of the ${role.slug} role cannot be changed.`);
}

/**
 * Replaces the role's permissions in the organization (configuring it there if it was not) and
 * audits the change, in the caller's tenant transaction. `actorId`: null for the operator's CLI.
 */
export async function replaceRolePermissions(
  trx: TenantTransaction,
  organizationId: number,
  role: RoleRecord,
  change: { before: readonly string[]; after: readonly string[] },
  actorId: number | null,
): Promise<void> {
  await setRolePermissions(trx, organizationId, role.id, change.after);
  await appendAuditLog(trx, {
    organizationId,
    model: 'role_permissions',
    recordId: role.id,
    action: 'updated',
    oldValues: { permissions: change.before },
    newValues: { permissions: change.after },
    userId: actorId,
  });
}
