import { sql, type CompiledQuery } from 'kysely';
import { keyAlias, pageStatement, sortKey, type PageShape } from './build-index-query.js';
import type { LooseRow, LooseTransaction } from '../models/loose-schema.js';
import type { KeyValues } from './page-cursor.js';
import type { ListQuery } from './parsed-query.js';
import { boundQuery, selectionStatement, type BoundQuery, type Selection, type SelectionQuery, type SelectionStatement } from './selection-statement.js';
import type { BoundValues } from '../db/statements/bound-values.js';
import { boundFields, recordJson, RECORD_JSON, type RecordJsonFields } from './record-json.js';

export interface Page {
  /**
   * Each with its sort key's text columns (`keyAlias`) still on it: deleting a property turns an
   * object into a slow dictionary for every later read of it, and the serializer copies only
   * exposed attributes anyway.
   */
  rows: LooseRow[];
  /** The sort key of the row after the page's last, when there is one: where the next page starts. */
  nextKey: KeyValues | null;
}

export interface PageRequest extends Pick<ListQuery, 'sort' | 'page' | 'perPage'> {
  /** Keyset pagination: the rows after this sort key, instead of an offset. */
  after: KeyValues | null;
}

const PAGE: SelectionStatement<PageShape> = { build: (selected, shape) => pageStatement(selected, shape).compile() };

/** The same page, as other statements read it. */
const PAGE_ROWS: SelectionQuery<PageShape> = { query: (selected, shape) => pageStatement(selected, shape) };

/** Where `request` starts and how many rows it reads, its values bound. */
function pageShape(request: PageRequest, bound: BoundValues, limit: number): PageShape {
  const key = sortKey(request.sort);
  const { after, perPage } = request;
  // Which key values are null changes the keyset condition itself, so it is part of the shape.
  return {
    key,
    after: after && key.map((_, index) => (after[index] == null ? null : bound.bind(after[index]))),
    limit: bound.bind(limit),
    offset: bound.bind(after ? 0 : (request.page - 1) * perPage),
  };
}

/** The statement of one page of a selection (see fetchPage): one row more than the page, to know whether another follows. */
export function fetchPageStatement(trx: LooseTransaction, selection: Selection, request: PageRequest): CompiledQuery {
  return selectionStatement<PageShape>(trx, selection, PAGE, (bound) => pageShape(request, bound, request.perPage + 1));
}

/** The rows of one page, the row after it aside, as a subquery of the statements that read from them (include hops). */
export function pageRows(trx: LooseTransaction, selection: Selection, request: PageRequest): (bound: BoundValues) => BoundQuery {
  return (bound) => boundQuery(trx, selection, PAGE_ROWS, (own) => pageShape(request, own, request.perPage), bound);
}

/** The page of the rows a page statement of `request` read, and where the next page starts. */
export function pageOf(fetched: LooseRow[], request: PageRequest): Page {
  const key = sortKey(request.sort);
  const { perPage } = request;
  const keyOf = (row: LooseRow) => key.map((_, index) => (row[keyAlias(index)] ?? null) as string | null);
  const rows = fetched.slice(0, perPage);
  const nextKey = fetched.length > perPage && rows.length > 0 ? keyOf(rows[rows.length - 1]!) : null;
  return { rows, nextKey };
}

/** One page of a selection, in the requested order, and where the next one starts. */
export async function fetchPage(trx: LooseTransaction, selection: Selection, request: PageRequest): Promise<Page> {
  return pageOf((await trx.executeQuery<LooseRow>(fetchPageStatement(trx, selection, request))).rows, request);
}


interface JsonPageShape {
  page: PageShape;
  fields: RecordJsonFields;
}

/**
 * The page's rows, then their JSON: written over the page as a subquery, so PostgreSQL writes it
 * for the page's rows alone, not for every row a sort reads before its limit. The same order
 * again, which the subquery's order already gives, keeps it.
 */
const JSON_PAGE: SelectionStatement<JsonPageShape> = {
  build: (selected, { page, fields }, trx) => {
    const keys = page.key.map((_, index) => sql.ref(`page.${keyAlias(index)}`).as(keyAlias(index)));
    let query = trx.selectFrom(pageStatement(selected, page).as('page')).select(recordJson('page', fields.columns, fields.shown).as(RECORD_JSON)).select(keys);
    for (const { column, direction } of page.key) query = query.orderBy(sql.ref(`page.${column}`), direction);
    return query.compile();
  },
};

/** The statement of one page whose records PostgreSQL writes as JSON (`recordJson`): rows of RECORD_JSON and the sort key. */
export function jsonPageStatement(trx: LooseTransaction, selection: Selection, request: PageRequest, fields: RecordJsonFields): CompiledQuery {
  return selectionStatement<JsonPageShape>(trx, selection, JSON_PAGE, (bound) => ({
    page: pageShape(request, bound, request.perPage + 1),
    fields: boundFields(fields, bound),
  }));
}
