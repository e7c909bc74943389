import type { ModelDefinition } from '../models/define-model.js';
import type { ListQuery } from '../listing/parsed-query.js';
import type { RawQuery } from '../listing/query-parameter.js';
import { UnreadableQueryFieldsError } from '../errors/unreadable-query-fields-error.js';
import type { DataActionContext } from './data-action-context.js';

type QueriedParts = Pick<ListQuery, 'filters' | 'search'> & Partial<Pick<ListQuery, 'sort'>>;

/**
 * Refuses a query that filters, sorts or searches by a field the caller may not read, naming each
 * once in request order. A search reads every searchable field. The model's default order is the
 * model's choice, not the caller's, so only a sort the request names counts.
 */
export function gateQueriedFields(context: DataActionContext, model: ModelDefinition, query: QueriedParts, raw: RawQuery): void {
  const sorted = raw.sort === undefined ? [] : (query.sort ?? []).map(({ column }) => column);
  const queried = new Set([...query.filters.map(({ column }) => column), ...sorted, ...(query.search === null ? [] : model.search)]);
  const readable = context.readable(model);
  const unreadable = [...queried].filter((field) => !readable(field));
  if (unreadable.length > 0) throw new UnreadableQueryFieldsError(unreadable);
}
