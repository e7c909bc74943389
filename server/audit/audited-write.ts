import { sql, type CompiledQuery, type OperationNodeSource, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import type { ModelDefinition } from '../models/define-model.js';
import type { LooseRow, LooseTransaction } from '../models/loose-schema.js';
import type { AuditAction } from './record-audit.js';

/** A data write that returns the rows it wrote (`RETURNING *`), ready to become a common table expression. */
export interface ReturningWrite extends OperationNodeSource {
  compile(): CompiledQuery;
}

/**
 * Where a write's audit row takes its values: a created record's are the written row; an
 * update's, what changed between the row read before and the written row; a deleted record's,
 * the row read before; a restore keeps none.
 */
export type WrittenAudit = { action: 'created' | 'restored' } | { action: Exclude<AuditAction, 'created' | 'restored'>; before: LooseRow };

/** The Node process's zone: the pg driver reads a timestamp without time zone and a date in it. */
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A row read through the driver, as JSON.stringify writes it: how the service wrote audit values from Node. */
export const nodeJson = (row: object) => JSON.stringify(row);

/** The old and new values of the audit row, as SQL over `written` (and, for an update, `changes`). */
function auditValues(model: ModelDefinition, entry: WrittenAudit): { values: [RawBuilder<unknown>, RawBuilder<unknown>]; from: RawBuilder<unknown> } {
  const written = sql`gatehouse_audit_values(${model.table}::regclass, to_jsonb(written), ${ZONE}::text)`;
  switch (entry.action) {
    case 'created':
      return { values: [sql`NULL::jsonb`, written], from: sql`written` };
    case 'restored':
      return { values: [sql`NULL::jsonb`, sql`NULL::jsonb`], from: sql`written` };
    case 'updated':
      return {
        values: [sql`changes.old_values`, sql`changes.new_values`],
        from: sql`written CROSS JOIN LATERAL gatehouse_audit_changes(${nodeJson(entry.before)}::jsonb, ${written}) AS changes`,
      };
    default:
      return { values: [sql`${nodeJson(entry.before)}::jsonb`, sql`NULL::jsonb`], from: sql`written` };
  }
}

/**
 * The audit row a write inserts from the rows it returned: each value as SQL over `from` (which
 * reads `written`), inserted only where `where` holds.
 */
export interface WrittenAuditRow {
  /** Null for a model no organization owns: its trail is global_audit_logs (sql/025_global_audit_logs.sql). */
  organizationId: RawBuilder<unknown> | null;
  model: string;
  recordId: RawBuilder<unknown>;
  action: AuditAction;
  values: [RawBuilder<unknown>, RawBuilder<unknown>];
  from: RawBuilder<unknown>;
  where?: RawBuilder<unknown>;
}

/**
 * A write and its audit row in one statement: the write as a common table expression, the audit
 * row inserted from what it wrote (so a write that touches nothing logs nothing, and a failed one
 * leaves the transaction aborted, its COMMIT a rollback), `answer` (over `written`) as its rows.
 */
export function writeWithAuditRow(
  trx: QueryExecutorProvider,
  write: ReturningWrite,
  row: WrittenAuditRow,
  userId: number | null,
  answer: RawBuilder<unknown> = sql`SELECT * FROM written`,
): CompiledQuery {
  const where = row.where ? sql` WHERE ${row.where}` : sql``;
  const entry = sql`${row.model}::text, ${row.recordId}, ${row.action}::text, ${row.values[0]}, ${row.values[1]}, ${userId}::integer FROM ${row.from}${where}`;
  const logged =
    row.organizationId === null
      ? sql`INSERT INTO global_audit_logs (model, record_id, action, old_values, new_values, user_id) SELECT ${entry}`
      : sql`INSERT INTO audit_logs (organization_id, model, record_id, action, old_values, new_values, user_id) SELECT ${row.organizationId}, ${entry}`;
  return sql`WITH written AS (${write}), logged AS (${logged}) ${answer}`.compile(trx);
}

/**
 * A data write and its audit row in one statement (writeWithAuditRow), its rows as the answer.
 * The values are those the service wrote from Node: the rows it read are sent as their JSON, a
 * written row is turned into the same JSON in SQL (sql/017_audit_values.sql).
 */
export function auditedWrite(trx: LooseTransaction, model: ModelDefinition, write: ReturningWrite, entry: WrittenAudit, userId: number | null): CompiledQuery {
  if (!model.audit) return write.compile();
  const { values, from } = auditValues(model, entry);
  const organizationId = model.tenantOwned ? sql`written.organization_id` : null;
  return writeWithAuditRow(trx, write, { organizationId, model: model.slug, recordId: sql`written.id::text`, action: entry.action, values, from }, userId);
}
