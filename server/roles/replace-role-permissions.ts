import { sql } from 'kysely';
import { nodeJson, writeWithAuditRow } from '../audit/audited-write.js';
import { rolePermissionsUpsert, type RoleRecord } from '../db/repositories/roles.js';
import { runWrite, type LastWrite } from '../db/transactions/read-ahead.js';
import type { TenantTransaction } from '../db/transactions/tenant-transaction.js';
import { AccessDeniedError } from '../errors/access-denied-error.js';

/** The owner role keeps its permissions, so an organization can never lose its owners' reach. */
export function assertNotOwnerRole(role: RoleRecord, ownerRole: string): void {
  if (role.slug === ownerRole) throw new AccessDeniedError(`The permissions of the ${role.slug} role cannot be changed.`);
}

/**
 * Replaces the role's permissions in the organization (configuring it there if it was not) and
 * audits the change, one statement in the caller's tenant transaction. `actorId`: null for the
 * operator's CLI. `last`: see LastWrite (`read-ahead.ts`).
 */
export async function replaceRolePermissions(
  trx: TenantTransaction,
  organizationId: number,
  role: RoleRecord,
  change: { before: readonly string[]; after: readonly string[] },
  actorId: number | null,
  options: LastWrite = {},
): Promise<void> {
  const statement = writeWithAuditRow(
    trx,
    rolePermissionsUpsert(trx, organizationId, role.id, change.after),
    {
      organizationId: sql`written.organization_id`,
      model: 'role_permissions',
      recordId: sql`written.role_id::text`,
      action: 'updated',
      values: [sql`${nodeJson({ permissions: change.before })}::jsonb`, sql`${nodeJson({ permissions: change.after })}::jsonb`],
      from: sql`written`,
    },
    actorId,
  );
  await runWrite(trx, statement, options);
}
