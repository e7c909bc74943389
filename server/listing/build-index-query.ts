import { sql, type ExpressionBuilder } from 'kysely';
import type { ModelDefinition, ScopeContext } from '../models/define-model.js';
import type { BoundValues } from '../db/statements/bound-values.js';
import type { LooseSchema, LooseSelect } from '../models/loose-schema.js';
import type { KeyValues } from './page-cursor.js';
import type { ListQuery } from './parsed-query.js';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/** What narrows a query: filters, search and named scopes. */
export type Narrowing = Pick<ListQuery, 'filters' | 'search' | 'scopes'>;

export const NO_NARROWING: Narrowing = { filters: [], search: null, scopes: [] };

/**
 * A narrowing as a statement is built from it: the search already turned into the pattern it
 * matches, and the filters' values and the pattern bound. Scope arguments stay as they are: a
 * scope is the model's own function, so its SQL may depend on its argument.
 */
export interface NarrowingShape {
  filters: Narrowing['filters'];
  pattern: string | null;
  scopes: Narrowing['scopes'];
}

export function narrowingShape({ filters, search, scopes }: Narrowing, bound: BoundValues): NarrowingShape {
  return {
    filters: filters.map(({ column, values }) => ({ column, values: values.map((value) => bound.bind(value)) })),
    pattern: search === null ? null : bound.bind(`%${escapeLike(search)}%`),
    scopes,
  };
}

/** Filters, search and named scopes: what narrows both a page and its aggregates. */
export function narrowQuery(query: LooseSelect, model: ModelDefinition, narrowing: NarrowingShape, context: ScopeContext): LooseSelect {
  let narrowed = query;
  for (const { column, values } of narrowing.filters) {
    narrowed = values.length === 0 ? narrowed.where(sql.lit(false)) : narrowed.where(sql.ref(column), 'in', values);
  }
  const { pattern } = narrowing;
  if (pattern !== null) narrowed = narrowed.where((eb) => eb.or(model.search.map((column) => eb(sql.ref(column), 'ilike', pattern))));
  for (const { name, argument } of narrowing.scopes) narrowed = model.scopes[name]!.apply(narrowed, context, argument);
  return narrowed;
}

type SortKey = ListQuery['sort'];

/** The requested order with the key last, so the order is total and pages never overlap. */
export function sortKey(sort: SortKey): SortKey {
  return sort.some(({ column }) => column === 'id') ? sort : [...sort, { column: 'id', direction: 'asc' }];
}

/** How a sort key is named inside a cursor, so a cursor read in one order is refused in another. */
export const sortSignature = (sort: SortKey) => sortKey(sort).map(({ column, direction }) => `${column}:${direction}`).join(',');

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

/** Where a page starts: after a sort key (a keyset page) or at an offset. Values may be placeholders. */
export interface PageShape {
  /** The order, with the key last (`sortKey`). */
  key: SortKey;
  /** Keyset pagination: the rows after this sort key; null reads from `offset`. */
  after: KeyValues | null;
  limit: number;
  offset: number;
}

export const keyAlias = (index: number) => `__key_${index}`;

/**
 * The rows statement of a page: its order, `limit` rows (one more than the page, so the page
 * knows whether another follows) and the sort key as text (so a cursor holds it exactly,
 * microseconds of a timestamp included).
 */
export function pageStatement(query: LooseSelect, { key, after, limit, offset }: PageShape) {
  let ordered = query.selectAll().select(key.map(({ column }, index) => sql<string>`${sql.ref(column)}::text`.as(keyAlias(index))));
  if (after) ordered = ordered.where(afterKey(key, after));
  for (const { column, direction } of key) ordered = ordered.orderBy(sql.ref(column), direction);
  return ordered.limit(limit).offset(offset);
}
