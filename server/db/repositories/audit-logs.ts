import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { TenantTransaction } from '../transactions/tenant-transaction.js';
import { fixedStatement } from '../statements/fixed-statement.js';
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

/**
 * The rows that show a reader something: every row but an update that changed none of the
 * fields the reader may read of its model (`readable`, by model slug); a model not in the map is
 * shown whole. An update of hidden fields alone would tell that they changed.
 */
export function showsReadableChange(readable: ReadonlyMap<string, readonly string[]>): RawBuilder<boolean> {
  const conditions = [
    sql`audit_logs.action <> 'updated'`,
    sql`NOT (audit_logs.model = ANY (${[...readable.keys()]}::text[]))`,
    ...[...readable].map(([model, names]) => sql`(audit_logs.model = ${model} AND audit_logs.new_values ?| ${[...names]}::text[])`),
  ];
  return sql<boolean>`(${sql.join(conditions, sql` OR `)})`;
}

/**
 * The rows of records the reader may see: a model in `shown` (by slug) only where its record
 * meets the condition, on `audit_logs.record_id`; a model not in the map is shown whole.
 */
function showsVisibleRecord(shown: ReadonlyMap<string, RawBuilder<SqlBool>>): RawBuilder<boolean> {
  const conditions = [sql`NOT (audit_logs.model = ANY (${[...shown.keys()]}::text[]))`, ...[...shown].map(([model, condition]) => sql`(audit_logs.model = ${model} AND ${condition})`)];
  return sql<boolean>`(${sql.join(conditions, sql` OR `)})`;
}

/** What narrows an organization's audit trail; each filter is optional. */
export interface AuditLogFilters {
  model?: string;
  userId?: number;
  action?: string;
  /** The fields the reader may read, by model: see showsReadableChange. */
  readable?: ReadonlyMap<string, readonly string[]>;
  /** The records the reader may see, by model: see showsVisibleRecord. */
  shown?: ReadonlyMap<string, RawBuilder<SqlBool>>;
}

export interface AuditLogPage {
  page: number;
  perPage: number;
}

function filteredTrail(trx: TenantTransaction, organizationId: number, filters: AuditLogFilters) {
  let trail = trx.selectFrom('audit_logs').where('audit_logs.organization_id', '=', organizationId);
  if (filters.model !== undefined) trail = trail.where('audit_logs.model', '=', filters.model);
  if (filters.userId !== undefined) trail = trail.where('audit_logs.user_id', '=', filters.userId);
  if (filters.action !== undefined) trail = trail.where('audit_logs.action', '=', filters.action);
  if (filters.readable !== undefined) trail = trail.where(showsReadableChange(filters.readable));
  if (filters.shown !== undefined && filters.shown.size > 0) trail = trail.where(showsVisibleRecord(filters.shown));
  return trail;
}

/** One page of the organization's trail, newest first, with who acted and the filtered total. */
export async function listAuditLogs(trx: TenantTransaction, organizationId: number, filters: AuditLogFilters, { page, perPage }: AuditLogPage) {
  const trail = filteredTrail(trx, organizationId, filters);
  const [rows, count] = await Promise.all([
    trail
      .leftJoin('users', 'users.id', 'audit_logs.user_id')
      .select(['audit_logs.id', 'audit_logs.model', 'audit_logs.record_id', 'audit_logs.action', 'audit_logs.old_values', 'audit_logs.new_values', 'audit_logs.user_id', 'users.name as user_name', 'audit_logs.created_at'])
      .orderBy('audit_logs.id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    trail.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}
