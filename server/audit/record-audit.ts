import type { LooseRow } from '../models/loose-schema.js';

export const AUDIT_ACTIONS = ['created', 'updated', 'deleted', 'restored', 'force_deleted'] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Only what an update changed, on both sides, so an audit row reads as a diff. */
export function changedValues(before: LooseRow, after: LooseRow): { oldValues: LooseRow; newValues: LooseRow } {
  const changed = Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return {
    oldValues: Object.fromEntries(changed.map((key) => [key, before[key]])),
    newValues: Object.fromEntries(changed.map((key) => [key, after[key]])),
  };
}
