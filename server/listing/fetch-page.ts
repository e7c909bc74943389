import type { CompiledQuery } from 'kysely';
import { keyAlias, pageStatement, sortKey, type PageShape } from './build-index-query.js';
import type { LooseRow, LooseTransaction } from '../models/loose-schema.js';
import type { KeyValues } from './page-cursor.js';
import type { ListQuery } from './parsed-query.js';
import { selectionStatement, type Selection, type SelectionStatement } from './selection-statement.js';

export interface Page {
  rows: LooseRow[];
  /** The sort key of the row after the page's last, when there is one: where the next page starts. */
  nextKey: KeyValues | null;
}

export interface PageRequest extends Pick<ListQuery, 'sort' | 'page' | 'perPage'> {
  /** Keyset pagination: the rows after this sort key, instead of an offset. */
  after: KeyValues | null;
}

const PAGE: SelectionStatement<PageShape> = { build: (selected, shape) => pageStatement(selected, shape).compile() };

/** The statement of one page of a selection (see fetchPage). */
export function fetchPageStatement(trx: LooseTransaction, selection: Selection, request: PageRequest): CompiledQuery {
  const key = sortKey(request.sort);
  const { after, perPage } = request;
  // Which key values are null changes the keyset condition itself, so it is part of the shape.
  return selectionStatement<PageShape>(trx, selection, PAGE, (bound) => ({
    key,
    after: after && key.map((_, index) => (after[index] == null ? null : bound.bind(after[index]))),
    limit: bound.bind(perPage + 1),
    offset: bound.bind(after ? 0 : (request.page - 1) * perPage),
  }));
}

/** One page of a selection, in the requested order, and where the next one starts. */
export async function fetchPage(trx: LooseTransaction, selection: Selection, request: PageRequest): Promise<Page> {
  const key = sortKey(request.sort);
  const { perPage } = request;
  const { rows: fetched } = await trx.executeQuery<LooseRow>(fetchPageStatement(trx, selection, request));
  const keyOf = (row: LooseRow) => key.map((_, index) => (row[keyAlias(index)] ?? null) as string | null);
  const rows = fetched.slice(0, perPage);
  const nextKey = fetched.length > perPage && rows.length > 0 ? keyOf(rows[rows.length - 1]!) : null;
  for (const row of rows) for (let index = 0; index < key.length; index += 1) delete row[keyAlias(index)];
  return { rows, nextKey };
}
