import { randomBytes } from 'node:crypto';
import { sql, type CompiledQuery } from 'kysely';
import { NotFoundError } from '../errors/not-found-error.js';
import type { Aggregate, ModelDefinition, ScopeContext } from '../models/define-model.js';
import type { ModelRegistry } from '../models/model-registry.js';
import type { ReadAhead } from '../db/transactions/read-ahead.js';
import { NO_NARROWING, sortSignature } from '../listing/build-index-query.js';
import type { CountMode } from '../models/count-mode.js';
import { countRows, countStatements } from '../listing/count-rows.js';
import { fetchPage, fetchPageStatement, jsonPageStatement, pageOf, pageRows, type PageRequest } from '../listing/fetch-page.js';
import { PageCursors, type KeyValues } from '../listing/page-cursor.js';
import { includeStatements, loadIncludes, type ParentRows } from '../listing/load-includes.js';
import type { LooseRow, LooseTransaction } from '../models/loose-schema.js';
import { parseEndpointParameters } from '../listing/parse-endpoint-parameters.js';
import { gateQueriedFields } from './queried-fields-gate.js';
import { readsCallerContext, selectionStatement, type Selection, type SelectionStatement } from '../listing/selection-statement.js';
import type { ListQuery, ParsedQuery, ShapeQuery } from '../listing/parsed-query.js';
import type { RawQuery } from '../listing/query-parameter.js';
import type { DataActionContext } from './data-action-context.js';
import { changeFields, readableChanges } from '../audit/readable-changes.js';
import { auditTable } from '../audit/record-audit.js';
import { auditedTrash } from '../audit/audited-trash.js';
import { trailFieldGuesses, trailReaderKey } from '../audit/trail-field-guesses.js';
import { exposedAttributes } from './exposed-attributes.js';
import { showsReadableChange } from '../db/repositories/audit-logs.js';
import { RecordNotFoundError } from '../errors/data-errors.js';
import { gateListing, gateShow } from './action-gates.js';
import { findRecord, parseRecordId, recordRow, recordStatement, requireSoftDeletes } from './find-record.js';
import { readLast, sendReadsLast } from './send-last-reads.js';
import { recordSerializer } from './serialize-record.js';
import { JsonText } from './json-text.js';
import { mapInSlices } from './in-slices.js';
import { jsonRead, jsonStatement, plannedFields, type JsonRead, type RecordReading } from './json-reads.js';
import { RECORD_JSON, type RecordJsonCatalog } from '../listing/record-json.js';

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

/** A page's records as Node writes them: objects, which the route's JSON.stringify writes. */
interface RecordObjects {
  kind: 'objects';
  data: LooseRow[];
}

/** A page's records as PostgreSQL wrote them: their array's JSON. */
interface RecordJson {
  kind: 'json';
  data: JsonText;
}

/** An index or trash page as a route answers it: `kind` says who wrote its records. */
export type ListAnswer = (RecordObjects | RecordJson) & { pagination: Pagination };

/** A list whose records PostgreSQL wrote. */
export type JsonRecordList = Extract<ListAnswer, { kind: 'json' }>;

const lastPage = (total: number, perPage: number) => Math.max(1, Math.ceil(total / perPage));

/** An exactly counted page by number. */
export function pagination({ page, perPage }: Pick<ListQuery, 'page' | 'perPage'>, total: number): Pagination {
  return { currentPage: page, lastPage: lastPage(total, perPage), perPage, total, estimated: false, nextCursor: null, countApplied: null };
}

/** The rows as the caller may read them, with their includes: what a read does last. `parents`: where the rows come from, for hops sent ahead. */
async function serializeWithIncludes(context: DataActionContext, model: ModelDefinition, rows: LooseRow[], shape: ShapeQuery, parents: ParentRows): Promise<LooseRow[]> {
  const included = await loadIncludes(context.trx, context.registry, model, rows, shape.includes, context.scope, { endsRead: true, parents });
  const { serialize } = recordSerializer(context, { fields: shape.fields, computed: { [model.slug]: shape.computedAttributes }, included });
  // A page with its includes embeds up to thousands of records: serialized a slice at a time.
  return mapInSlices(rows, (row) => serialize(model, row));
}

/** Where a listing reads: its cursor's binding, the key it starts after, and its selection. */
function listingSelection(model: ModelDefinition, scope: ScopeContext, query: ParsedQuery, listing: Listing, trashed: 'without' | 'only') {
  // A cursor is bound to the model, the listing and the order it was read in.
  const binding = `${model.slug}|${trashed}|${sortSignature(query.sort)}`;
  const after = query.cursor === null ? null : listing.cursors.decode(binding, query.cursor);
  const selection: Selection = { model, scope, trashed, narrowing: query };
  return { binding, after, selection };
}

const countMode = (model: ModelDefinition, listing: Listing) => listing.preferredCount ?? model.count;

/** A page as one writer of its records reads it: where the next page starts, and its records, read once it is counted. */
interface PageRead<Records> {
  nextKey: KeyValues | null;
  records: () => Records | Promise<Records>;
}

/** How a listing reads its page over `selection`; `mode` is the count that follows it. */
type PageReader<Records> = (selection: Selection, request: PageRequest, mode: CountMode) => Promise<PageRead<Records>>;

/** Node writes the records: the page's rows, serialized with their includes, which end the read. */
const objectsPage =
  (context: DataActionContext, model: ModelDefinition, shape: ShapeQuery): PageReader<RecordObjects> =>
  async (selection, request) => {
    const page = await fetchPage(context.trx, selection, request);
    const records = async (): Promise<RecordObjects> => ({ kind: 'objects', data: await serializeWithIncludes(context, model, page.rows, shape, pageRows(context.trx, selection, request)) });
    return { nextKey: page.nextKey, records };
  };

/** PostgreSQL writes the records: their JSON, read with the page's count. */
const jsonPage =
  (context: DataActionContext, json: JsonRead): PageReader<RecordJson> =>
  async (selection, request, mode) => {
    const { statement, narrow } = await jsonStatement(context, json, (fields) => jsonPageStatement(context.trx, selection, request, fields));
    const page = pageOf(await readLast<LooseRow>(context, statement, countStatements(context.trx, selection, mode)), request);
    const records = page.rows.map((row) => row[RECORD_JSON] as string);
    const data = new JsonText(`[${(narrow ? records.map(narrow) : records).join(',')}]`);
    return { nextKey: page.nextKey, records: () => ({ kind: 'json', data }) };
  };

/** An index or trash page, its records read by the reader `readerOf` picks for the gated query. */
async function listRecords<Records>(context: DataActionContext, model: ModelDefinition, raw: RawQuery, listing: Listing, trashed: 'without' | 'only', readerOf: (query: ParsedQuery) => PageReader<Records>): Promise<Records & { pagination: Pagination }> {
  const query = gateListing(context, model, raw, trashed);
  const { binding, after, selection } = listingSelection(model, context.scope, query, listing, trashed);
  const mode = countMode(model, listing);
  const page = await readerOf(query)(selection, { ...query, after }, mode);
  const count = await countRows(context.trx, selection, mode);
  const pagination: Pagination = {
    currentPage: after === null ? query.page : null,
    lastPage: count.total === null ? null : lastPage(count.total, query.perPage),
    perPage: query.perPage,
    total: count.total,
    estimated: count.estimated,
    nextCursor: page.nextKey === null ? null : listing.cursors.encode(binding, page.nextKey),
    countApplied: listing.preferredCount,
  };
  return { ...(await page.records()), pagination };
}

/** An index or trash page as a route answers it: its records' JSON written by PostgreSQL where `reading` lets it. */
export const listAnswer = (context: DataActionContext, model: ModelDefinition, raw: RawQuery, listing: Listing, trashed: 'without' | 'only', reading: RecordReading): Promise<ListAnswer> =>
  listRecords<RecordObjects | RecordJson>(context, model, raw, listing, trashed, (query) => {
    const json = jsonRead(context, model, query, reading);
    return json ? jsonPage(context, json) : objectsPage(context, model, query);
  });

/** An index whose records Node writes: for callers that read them as objects. */
export const indexRecords = (context: DataActionContext, model: ModelDefinition, raw: RawQuery, listing = PROCESS_LISTING): Promise<RecordList> =>
  listRecords(context, model, raw, listing, 'without', (query) => objectsPage(context, model, query));

export async function showRecord(context: DataActionContext, model: ModelDefinition, id: string, raw: RawQuery): Promise<LooseRow> {
  const { row, query } = await gateShow(context, model, id, raw);
  const selection: Selection = { model, scope: context.scope, trashed: 'without', narrowing: query, reads: 'record' };
  const [record] = await serializeWithIncludes(context, model, [row], query, recordRow(context.trx, selection, parseRecordId(id)));
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

/** The declared aggregates a computed request asks for: all of them unless it names some. */
function askedAggregates(model: ModelDefinition, query: ParsedQuery): NamedAggregate[] {
  return Object.entries(model.computed)
    .filter(([name]) => query.aggregates?.includes(name) ?? true)
    .map(([name, aggregate]) => ({ name, ...aggregate }));
}

const aggregatesStatement = (trx: LooseTransaction, selection: Selection, aggregates: NamedAggregate[]) => selectionStatement(trx, selection, AGGREGATES, () => aggregates);

/** The model's declared aggregates over the rows the caller could list, narrowed like an index. */
export async function computeAggregates(context: DataActionContext, model: ModelDefinition, raw: RawQuery): Promise<Record<string, number | null>> {
  const query = parseEndpointParameters(context.registry, model, raw, 'computed');
  context.authorize(model, 'viewAny');
  gateQueriedFields(context, model, query, raw);
  const aggregates = askedAggregates(model, query);
  if (aggregates.length === 0) return {};
  const selection: Selection = { model, scope: context.scope, trashed: 'without', narrowing: query };
  const { rows } = await context.trx.executeQuery<Record<string, string | null>>(aggregatesStatement(context.trx, selection, aggregates));
  const row = rows[0]!;
  const readable = context.readable(model);
  return Object.fromEntries(aggregates.filter((aggregate) => aggregateReads(aggregate).every(readable)).map(({ name }) => [name, row[name] === null ? null : Number(row[name])]));
}

/**
 * The attributes an aggregate reads: a caller who may not read one of them does not get it, as
 * with a computed attribute, or a count of the drafts would tell a status hidden from them. The
 * statement still computes it, so that it stays the one the read-ahead sent.
 */
const aggregateReads = ({ column, where }: NamedAggregate): string[] => [...(column === undefined ? [] : [column]), ...Object.keys(where ?? {})];

/** A record's trail showing the changes of `fields` (see showsReadableChange): one page of it, oldest first, and its total. */
function trailStatements(db: LooseTransaction, model: ModelDefinition, recordId: number, fields: readonly string[], { page, perPage }: Pick<ListQuery, 'page' | 'perPage'>): [CompiledQuery, CompiledQuery] {
  // Named audit_logs either way: showsReadableChange names its columns so.
  const trail = db
    .selectFrom(`${auditTable(model)} as audit_logs`)
    .where('model', '=', model.slug)
    .where('record_id', '=', String(recordId))
    .where(showsReadableChange(new Map([[model.slug, fields]])));
  const entries = trail
    .select(['id', 'action', 'old_values', 'new_values', 'user_id', 'created_at'])
    .orderBy('id')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .compile();
  return [entries, trail.select((eb) => eb.fn.countAll<string>().as('total')).compile()];
}

const trailReader = ({ routeGroup, userId }: ScopeContext, organizationSlug: string | null, model: ModelDefinition) => trailReaderKey({ routeGroup, organizationSlug, userId, model: model.slug });

/**
 * A record's history, oldest first and paged like an index, gated like the record itself now: a
 * trashed record's needs the right to see trashed records (as absent as a missing one without
 * it), a field the caller cannot read is not in it, and an update of such fields alone is left
 * out, so the trail never tells that a hidden field changed.
 *
 * The trail's statements depend on the fields the caller may read, known only now: a request
 * sent them ahead for the fields its reader had the last time (planAudit), and they are read only
 * if these are the same; otherwise the trail is read again, in a transaction of its own under the
 * same tenant context (`sendReadsLast`).
 */
export async function auditTrail(context: DataActionContext, model: ModelDefinition, id: string, raw: RawQuery, organizationSlug: string | null = null): Promise<RecordList> {
  const query = parseEndpointParameters(context.registry, model, raw, 'audit');
  if (!model.audit) throw new NotFoundError(`Model ${model.slug} keeps no audit trail.`);
  const row = await findRecord(context, model, id, model.softDeletes ? 'with' : 'without');
  if (row.deleted_at !== null && auditedTrash(context, model) === 'without') throw new RecordNotFoundError();
  context.authorize(model, 'view', row);
  const serializer = recordSerializer(context);
  const fields = readableChanges(serializer, [model]).get(model.slug)!;
  trailFieldGuesses.set(trailReader(context.scope, organizationSlug, model), fields);
  const statements = trailStatements(context.trx, model, parseRecordId(id), fields, query);
  await sendReadsLast(context, statements);
  const [{ rows }, { rows: counted }] = await Promise.all([context.trx.executeQuery<LooseRow>(statements[0]), context.trx.executeQuery<{ total: string }>(statements[1])]);
  const read = serializer.reader(model);
  const gate = (values: unknown) => (values === null ? null : read(values as LooseRow));
  return {
    data: rows.map((entry) => ({ ...entry, id: Number(entry.id), old_values: gate(entry.old_values), new_values: gate(entry.new_values) })),
    pagination: pagination(query, Number(counted[0]!.total)),
  };
}

/**
 * A read as its route knows it before the request's opening answers: the request itself and its
 * caller's claims. The scope's organization is the one its slug named the last time (the opening
 * checks it, `tenancy/open-member-request.ts`); where there is none, a selection whose SQL depends
 * on the caller (a record scope, a named scope) is not planned.
 */
export interface PlannedRead {
  /** Builds the statements; they run in the request's own transaction. */
  db: LooseTransaction;
  registry: ModelRegistry;
  model: ModelDefinition;
  scope: ScopeContext;
  /** The organization the request addresses, not found yet; null outside tenancy. */
  organizationSlug: string | null;
  /** The scope's organization is known (or guessed, and checked by the opening): SQL that depends on it may be planned. */
  knowsCaller: boolean;
  raw: RawQuery;
}

/** The statements a read sends over `selection`, unless its SQL depends on what the opening learns. */
function planned(read: PlannedRead, selection: Selection, statements: () => CompiledQuery[], complete: boolean): ReadAhead | null {
  return !read.knowsCaller && readsCallerContext(selection) ? null : { statements: statements(), complete };
}

/**
 * A read's statements and its include hops' (`includeStatements`), their parents being the rows
 * of `rows`: complete when there are no hops or every hop could be planned, else the hops read
 * as they go.
 */
function plannedWithIncludes(read: PlannedRead, selection: Selection, includes: readonly string[], statements: () => CompiledQuery[], rows: () => ParentRows): ReadAhead | null {
  const { db, registry, model, scope, knowsCaller } = read;
  const hops = includes.length === 0 ? new Map<string, CompiledQuery>() : includeStatements(db, registry, model, includes, { scope, knowsCaller }, rows());
  return planned(read, selection, () => [...statements(), ...(hops?.values() ?? [])], hops !== null);
}

/** What a list reads, with its includes where they can be planned. */
export function planListing(read: PlannedRead, listing: Listing, trashed: 'without' | 'only', catalog: RecordJsonCatalog | null = null): ReadAhead | null {
  const { db, registry, model, scope, raw } = read;
  if (trashed === 'only') requireSoftDeletes(model);
  const query = parseEndpointParameters(registry, model, raw);
  const { after, selection } = listingSelection(model, scope, query, listing, trashed);
  const request = { ...query, after };
  const fields = plannedFields(read, query, catalog);
  const page = () => (fields ? jsonPageStatement(db, selection, request, fields) : fetchPageStatement(db, selection, request));
  const statements = () => [page(), ...countStatements(db, selection, countMode(model, listing))];
  return plannedWithIncludes(read, selection, query.includes, statements, () => pageRows(db, selection, request));
}

/** What showRecord reads, its includes with it where they can be planned. */
export function planShow(read: PlannedRead, id: string): ReadAhead | null {
  const { db, registry, model, scope, raw } = read;
  const query = parseEndpointParameters(registry, model, raw, 'show');
  const selection: Selection = { model, scope, trashed: 'without', narrowing: query, reads: 'record' };
  const recordId = parseRecordId(id);
  return plannedWithIncludes(read, selection, query.includes, () => [recordStatement(db, selection, recordId)], () => recordRow(db, selection, recordId));
}

/** What computeAggregates reads. */
export function planAggregates(read: PlannedRead): ReadAhead | null {
  const { db, registry, model, scope, raw } = read;
  const query = parseEndpointParameters(registry, model, raw, 'computed');
  const aggregates = askedAggregates(model, query);
  const selection: Selection = { model, scope, trashed: 'without', narrowing: query };
  return planned(read, selection, () => (aggregates.length === 0 ? [] : [aggregatesStatement(db, selection, aggregates)]), true);
}

/**
 * What auditTrail reads: its record, and its trail for the fields the reader could read the last
 * time (every readable one the first time): auditTrail reads those answers only if it still can.
 */
export function planAudit(read: PlannedRead, id: string): ReadAhead | null {
  const { db, registry, model, scope, raw, organizationSlug } = read;
  const query = parseEndpointParameters(registry, model, raw, 'audit');
  if (!model.audit) return null;
  const selection: Selection = { model, scope, trashed: model.softDeletes ? 'with' : 'without', narrowing: NO_NARROWING, reads: 'record' };
  const recordId = parseRecordId(id);
  const fields = trailFieldGuesses.get(trailReader(scope, organizationSlug, model)) ?? changeFields(exposedAttributes(model, () => true));
  return planned(read, selection, () => [recordStatement(db, selection, recordId), ...trailStatements(db, model, recordId, fields, query)], true);
}
