import type { Kysely } from 'kysely';
import { appendAuditLog } from '../db/repositories/audit-logs.js';
import type { Schema } from '../db/schema.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { LooseRow, LooseTransaction } from '../models/loose-schema.js';

export const AUDIT_ACTIONS = ['created', 'updated', 'deleted', 'restored', 'force_deleted'] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  action: AuditAction;
  record: LooseRow;
  oldValues: LooseRow | null;
  newValues: LooseRow | null;
  userId: number | null;
}

/** Only what an update changed, on both sides, so an audit row reads as a diff. */
export function changedValues(before: LooseRow, after: LooseRow): { oldValues: LooseRow; newValues: LooseRow } {
  const changed = Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return {
    oldValues: Object.fromEntries(changed.map((key) => [key, before[key]])),
    newValues: Object.fromEntries(changed.map((key) => [key, after[key]])),
  };
}

/**
 * Appends one audit row in the request's transaction, so a rolled-back change leaves no trace.
 * Values are stored whole; readers see them through the model's attribute gate.
 */
export async function recordAudit(trx: LooseTransaction, model: ModelDefinition, entry: AuditEntry): Promise<void> {
  if (!model.audit) return;
  await appendAuditLog(trx as unknown as Kysely<Schema>, {
    organizationId: model.tenantOwned ? Number(entry.record.organization_id) : null,
    model: model.slug,
    recordId: String(entry.record.id),
    action: entry.action,
    oldValues: entry.oldValues,
    newValues: entry.newValues,
    userId: entry.userId,
  });
}
