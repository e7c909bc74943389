import { sql, type ExpressionBuilder } from 'kysely';
import type { ModelDefinition, ScopeContext } from '../models/define-model.js';
import type { LooseRow, LooseSchema, LooseSelect, LooseTransaction } from './loose-schema.js';
import type { KeyValues } from './page-cursor.js';
import type { ListQuery } from './parsed-query.js';

export type TrashedMode = 'without' | 'only' | 'with';

/**
 * The record gate in SQL: the model's table as the caller may see it. Row-level security already
 * holds the tenant boundary inside the transaction; the model's scope and soft deletes narrow it.
 */
export function gatedQuery(trx: LooseTransaction, model: ModelDefinition, context: ScopeContext, trashed: TrashedMode = 'without'): LooseSelect {
  let query: LooseSelect = trx.selectFrom(model.table);
  if (model.recordScope) query = model.recordScope(query, context);
  if (model.softDeletes && trashed !== 'with') {
    query = query.where(sql.ref('deleted_at'), trashed === 'only' ? 'is not' : 'is', null);
  }
  return query;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/** Filters, search and named scopes: what narrows both a page and its aggregates. */
export function narrowQuery(query: LooseSelect, model: ModelDefinition, request: Pick<ListQuery, 'filters' | 'search' | 'scopes'>, context: ScopeContext): LooseSelect {
  let narrowed = query;
  for (const { column, values } of request.filters) {
    narrowed = values.length === 0 ? narrowed.where(sql.lit(false)) : narrowed.where(sql.ref(column), 'in', values);
  }
  if (request.search !== null) {
    const pattern = `%${escapeLike(request.search)}%`;
    narrowed = narrowed.where((eb) => eb.or(model.search.map((column) => eb(sql.ref(column), 'ilike', pattern))));
  }
  for (const { name, argument } of request.scopes) narrowed = model.scopes[name]!.apply(narrowed, context, argument);
  return narrowed;
}

export interface Page {
  rows: LooseRow[];
  /** The sort key of the row after the page's last, when there is one: where the next page starts. */
  nextKey: KeyValues | null;
}

export interface PageRequest extends Pick<ListQuery, 'sort' | 'page' | 'perPage'> {
  /** Keyset pagination: the rows after this sort key, instead of an offset. */
  after: KeyValues | null;
}

type SortKey = ListQuery['sort'];

/** The requested order with the key last, so the order is total and pages never overlap. */
export function sortKey(sort: SortKey): SortKey {
  return sort.some(({ column }) => column === 'id') ? sort : [...sort, { column: 'id', direction: 'asc' }];
}

/** How a sort key is named inside a cursor, so a cursor read in one order is refused in another. */
export const sortSignature = (sort: SortKey) => sortKey(sort).map(({ column, direction }) => `${column}:${direction}`).join(',');

const keyAlias = (index: number) => `__key_${index}`;

/**
 * Rows strictly after `values` in the order of `key`, PostgreSQL's default null placement included
 * (ascending: nulls last; descending: nulls first). The key `id` is never null.
 */
function afterKey(key: SortKey, values: KeyValues) {
  return (eb: ExpressionBuilder<LooseSchema, string>) => {
    const beyond = ({ column, direction }: SortKey[number], value: string | null) => {
      const ref = sql.ref(column);
      if (direction === 'desc') return value === null ? eb(ref, 'is not', null) : eb(ref, '<', value);
      if (value === null) return null;
      return column === 'id' ? eb(ref, '>', value) : eb.or([eb(ref, '>', value), eb(ref, 'is', null)]);
    };
    const branches = key.flatMap((part, index) => {
      const past = beyond(part, values[index] ?? null);
      if (past === null) return [];
      const equalBefore = key.slice(0, index).map(({ column }, before) => {
        const value = values[before] ?? null;
        return value === null ? eb(sql.ref(column), 'is', null) : eb(sql.ref(column), '=', value);
      });
      return [eb.and([...equalBefore, past])];
    });
    return eb.or(branches);
  };
}

/**
 * The rows statement of a page: the requested order, one row more than the page (so the page knows
 * whether another follows) and the sort key as text (so a cursor holds it exactly, microseconds of
 * a timestamp included).
 */
export function pageStatement(query: LooseSelect, request: PageRequest) {
  const key = sortKey(request.sort);
  let ordered = query.selectAll().select(key.map(({ column }, index) => sql<string>`${sql.ref(column)}::text`.as(keyAlias(index))));
  if (request.after) ordered = ordered.where(afterKey(key, request.after));
  for (const { column, direction } of key) ordered = ordered.orderBy(sql.ref(column), direction);
  const offset = request.after ? 0 : (request.page - 1) * request.perPage;
  return ordered.limit(request.perPage + 1).offset(offset);
}

export async function fetchPage(query: LooseSelect, request: PageRequest): Promise<Page> {
  const fetched = await pageStatement(query, request).execute();
  const keyLength = sortKey(request.sort).length;
  const keyOf = (row: LooseRow) => Array.from({ length: keyLength }, (_, index) => (row[keyAlias(index)] ?? null) as string | null);
  const rows = fetched.slice(0, request.perPage);
  const nextKey = fetched.length > request.perPage && rows.length > 0 ? keyOf(rows[rows.length - 1]!) : null;
  for (const row of rows) for (let index = 0; index < keyLength; index += 1) delete row[keyAlias(index)];
  return { rows, nextKey };
}
