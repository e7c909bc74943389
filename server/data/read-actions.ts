import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { NotFoundError } from '../http/errors/not-found-error.js';
import type { Aggregate, ModelDefinition } from '../models/define-model.js';
import { sortSignature } from '../query/build-index-query.js';
import type { CountMode } from '../models/count-mode.js';
import { countRows } from '../query/count-rows.js';
import { fetchPage } from '../query/fetch-page.js';
import { PageCursors } from '../query/page-cursor.js';
import { loadIncludes } from '../query/load-includes.js';
import type { LooseRow } from '../models/loose-schema.js';
import { parseIndexQuery } from '../query/parse-index-query.js';
import { selectRows, type SelectionStatement } from '../query/selection-statement.js';
import type { ListQuery, ShapeQuery } from '../query/parsed-query.js';
import type { RawQuery } from '../query/query-parameter.js';
import type { DataContext } from './data-context.js';
import { readableChanges } from '../audit/readable-changes.js';
import { showsReadableChange } from '../db/repositories/audit-logs.js';
import { RecordNotFoundError } from '../errors/data-errors.js';
import { gateListing, gateShow } from './action-gates.js';
import { findRecord } from './find-record.js';
import { recordSerializer } from './serialize-record.js';

export interface Pagination {
  /** Null for a keyset page. */
  currentPage: number | null;
  /** Null, like the total, when the client asked for no count. */
  lastPage: number | null;
  perPage: number;
  total: number | null;
  /** The total is the planner's estimate. */
  estimated: boolean;
  /** Where the next page starts, when there is one. */
  nextCursor: string | null;
  /** The client's count preference, when it sent one (answered in `Preference-Applied`). */
  countApplied: CountMode | null;
}

/** How a client asked to page through an index, beyond its query string. */
export interface Listing {
  /** From `Prefer: count=...`; null for the model's default. */
  preferredCount: CountMode | null;
  cursors: PageCursors;
}

/** For callers outside the HTTP layer: the model's count, cursors valid in this process only. */
const PROCESS_LISTING: Listing = { preferredCount: null, cursors: new PageCursors(randomBytes(32).toString('hex')) };

export interface RecordList {
  data: LooseRow[];
  pagination: Pagination;
}

const lastPage = (total: number, perPage: number) => Math.max(1, Math.ceil(total / perPage));

/** An exactly counted page by number. */
export function pagination({ page, perPage }: Pick<ListQuery, 'page' | 'perPage'>, total: number): Pagination {
  return { currentPage: page, lastPage: lastPage(total, perPage), perPage, total, estimated: false, nextCursor: null, countApplied: null };
}

async function serializeWithIncludes(context: DataContext, model: ModelDefinition, rows: LooseRow[], shape: ShapeQuery): Promise<LooseRow[]> {
  const included = await loadIncludes(context.trx, context.registry, model, rows, shape.includes, context.scope);
  const { serialize } = recordSerializer(context, { fields: shape.fields, computed: { [model.slug]: shape.computedAttributes }, included });
  return rows.map((row) => serialize(model, row));
}

async function listRecords(context: DataContext, model: ModelDefinition, raw: RawQuery, listing: Listing, trashed: 'without' | 'only'): Promise<RecordList> {
  const query = gateListing(context, model, raw, trashed);
  // A cursor is bound to the model, the listing and the order it was read in.
  const binding = `${model.slug}|${trashed}|${sortSignature(query.sort)}`;
  const after = query.cursor === null ? null : listing.cursors.decode(binding, query.cursor);
  const selection = { model, scope: context.scope, trashed, narrowing: query };
  const page = await fetchPage(context.trx, selection, { ...query, after });
  const count = await countRows(context.trx, selection, listing.preferredCount ?? model.count);
  return {
    data: await serializeWithIncludes(context, model, page.rows, query),
    pagination: {
      currentPage: after === null ? query.page : null,
      lastPage: count.total === null ? null : lastPage(count.total, query.perPage),
      perPage: query.perPage,
      total: count.total,
      estimated: count.estimated,
      nextCursor: page.nextKey === null ? null : listing.cursors.encode(binding, page.nextKey),
      countApplied: listing.preferredCount,
    },
  };
}

export const indexRecords = (context: DataContext, model: ModelDefinition, raw: RawQuery, listing = PROCESS_LISTING) => listRecords(context, model, raw, listing, 'without');

export const trashedRecords = (context: DataContext, model: ModelDefinition, raw: RawQuery, listing = PROCESS_LISTING) => listRecords(context, model, raw, listing, 'only');

export async function showRecord(context: DataContext, model: ModelDefinition, id: string, raw: RawQuery): Promise<LooseRow> {
  const { row, query } = await gateShow(context, model, id, raw);
  const [record] = await serializeWithIncludes(context, model, [row], query);
  return record!;
}

type NamedAggregate = Aggregate & { name: string };

/** The declared aggregates asked for, each as a column named after it. */
const AGGREGATES: SelectionStatement<NamedAggregate[]> = {
  build: (selected, aggregates) =>
    selected
      .select(
        aggregates.map(({ name, fn, column, where }) => {
          const argument = column ? sql.ref(column) : sql.raw('*');
          const conditions = Object.entries(where ?? {}).map(([key, value]) =>
            value === null ? sql`${sql.ref(key)} IS NULL` : sql`${sql.ref(key)} = ${value}`,
          );
          const filter = conditions.length > 0 ? sql` FILTER (WHERE ${sql.join(conditions, sql` AND `)})` : sql``;
          return sql<string | null>`${sql.raw(fn)}(${argument})${filter}`.as(name);
        }),
      )
      .compile(),
};

/** The model's declared aggregates over the rows the caller could list, narrowed like an index. */
export async function computeAggregates(context: DataContext, model: ModelDefinition, raw: RawQuery): Promise<Record<string, number | null>> {
  const query = parseIndexQuery(context.registry, model, raw, 'computed');
  context.authorize(model, 'viewAny');
  const entries = Object.entries(model.computed).filter(([name]) => query.aggregates?.includes(name) ?? true);
  if (entries.length === 0) return {};
  const [row] = await selectRows<NamedAggregate[], Record<string, string | null>>(
    context.trx,
    { model, scope: context.scope, trashed: 'without', narrowing: query },
    AGGREGATES,
    () => entries.map(([name, aggregate]) => ({ name, ...aggregate })),
  );
  return Object.fromEntries(entries.map(([name]) => [name, row![name] === null ? null : Number(row![name])]));
}

/**
 * A record's history, oldest first and paged like an index, gated like the record itself now: a
 * trashed record's needs the right to see trashed records (as absent as a missing one without
 * it), a field the caller cannot read is not in it, and an update of such fields alone is left
 * out, so the trail never tells that a hidden field changed.
 */
export async function auditTrail(context: DataContext, model: ModelDefinition, id: string, raw: RawQuery): Promise<RecordList> {
  const query = parseIndexQuery(context.registry, model, raw, 'audit');
  if (!model.audit) throw new NotFoundError(`Model ${model.slug} keeps no audit trail.`);
  const row = await findRecord(context, model, id, model.softDeletes ? 'with' : 'without');
  const policy = context.policyFor(model);
  if (model.softDeletes && row.deleted_at !== null && !policy.viewTrashed(context.user)) throw new RecordNotFoundError();
  context.authorize(model, 'view', row);
  const serializer = recordSerializer(context);
  const trail = context.trx
    .selectFrom('audit_logs')
    .where('model', '=', model.slug)
    .where('record_id', '=', String(row.id))
    .where(showsReadableChange(readableChanges(serializer, [model])));
  const [entries, count] = await Promise.all([
    trail
      .select(['id', 'action', 'old_values', 'new_values', 'user_id', 'created_at'])
      .orderBy('id')
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute(),
    trail.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  const read = serializer.reader(model);
  const gate = (values: unknown) => (values === null ? null : read(values as LooseRow));
  return {
    data: entries.map((entry) => ({ ...entry, id: Number(entry.id), old_values: gate(entry.old_values), new_values: gate(entry.new_values) })),
    pagination: pagination(query, Number(count.total)),
  };
}
