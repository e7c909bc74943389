import { sql } from 'kysely';
import type { ModelDefinition, ScopeContext } from '../models/define-model.js';
import type { LooseRow, LooseSelect, LooseTransaction } from './loose-schema.js';
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
  total: number;
}

/** The two statements of a page: its rows in the requested order (the key breaks ties so pages never overlap) and the total. */
export function pageStatements(query: LooseSelect, request: Pick<ListQuery, 'sort' | 'page' | 'perPage'>) {
  let ordered = query.selectAll();
  for (const { column, direction } of request.sort) ordered = ordered.orderBy(sql.ref(column), direction);
  if (!request.sort.some(({ column }) => column === 'id')) ordered = ordered.orderBy(sql.ref('id'), 'asc');
  return {
    rows: ordered.limit(request.perPage).offset((request.page - 1) * request.perPage),
    total: query.select((eb) => eb.fn.countAll<string>().as('total')),
  };
}

export async function fetchPage(query: LooseSelect, request: Pick<ListQuery, 'sort' | 'page' | 'perPage'>): Promise<Page> {
  const statements = pageStatements(query, request);
  const [rows, count] = await Promise.all([statements.rows.execute(), statements.total.executeTakeFirstOrThrow()]);
  return { rows, total: Number(count.total) };
}
