import type { ModelDefinition } from '../models/define-model.js';
import type { LooseRow } from '../models/loose-schema.js';

export const AUDIT_ACTIONS = ['created', 'updated', 'deleted', 'restored', 'force_deleted'] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Where a model's trail is kept: a tenant model's in its organization's `audit_logs`, that of a
 * model no organization owns (users) in `global_audit_logs` (sql/025_global_audit_logs.sql).
 */
export const auditTable = (model: Pick<ModelDefinition, 'tenantOwned'>) => (model.tenantOwned ? 'audit_logs' : 'global_audit_logs');

/** Only what an update changed, on both sides, so an audit row reads as a diff. */
export function changedValues(before: LooseRow, after: LooseRow): { oldValues: LooseRow; newValues: LooseRow } {
  const changed = Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return {
    oldValues: Object.fromEntries(changed.map((key) => [key, before[key]])),
    newValues: Object.fromEntries(changed.map((key) => [key, after[key]])),
  };
}
