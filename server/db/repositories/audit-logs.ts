import type { Kysely } from 'kysely';
import type { Schema } from '../schema.js';

export interface AuditLogEntry {
  organizationId: number;
  /** A model slug, or `memberships` / `role_permissions` for administration. */
  model: string;
  recordId: string | number;
  action: string;
  oldValues: object | null;
  newValues: object | null;
  userId: number | null;
}

/** Appends one row to the organization's audit trail, in the caller's transaction. */
export async function appendAuditLog(trx: Kysely<Schema>, entry: AuditLogEntry): Promise<void> {
  await trx
    .insertInto('audit_logs')
    .values({
      organization_id: entry.organizationId,
      model: entry.model,
      record_id: String(entry.recordId),
      action: entry.action,
      old_values: entry.oldValues && JSON.stringify(entry.oldValues),
      new_values: entry.newValues && JSON.stringify(entry.newValues),
      user_id: entry.userId,
    })
    .execute();
}
