import type { Kysely } from 'kysely';
import { fixedStatement } from '../fixed-statement.js';
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

const INSERT = fixedStatement(
  (trx: Kysely<Schema>, organizationId: number, model: string, recordId: string, action: string, oldValues: string | null, newValues: string | null, userId: number | null) =>
    trx.insertInto('audit_logs').values({
      organization_id: organizationId,
      model,
      record_id: recordId,
      action,
      old_values: oldValues,
      new_values: newValues,
      user_id: userId,
    }),
);

const json = (values: object | null) => values && JSON.stringify(values);

/** Appends one row to the organization's audit trail, in the caller's transaction. */
export async function appendAuditLog(trx: Kysely<Schema>, entry: AuditLogEntry): Promise<void> {
  const { organizationId, model, recordId, action, oldValues, newValues, userId } = entry;
  await trx.executeQuery(INSERT(trx, organizationId, model, String(recordId), action, json(oldValues), json(newValues), userId));
}
