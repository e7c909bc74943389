import { PAGE_HEADERS } from '@gatehouse/engine/wire';
import type { GatehouseContext } from '../http/state.js';
import type { RecordList } from './read-actions.js';

/** A page as the contract's clients read it: the rows as `{data}`, the position in headers. */
export function paginated(ctx: GatehouseContext, list: RecordList): { data: RecordList['data'] } {
  ctx.set({
    [PAGE_HEADERS.currentPage]: String(list.pagination.currentPage),
    [PAGE_HEADERS.lastPage]: String(list.pagination.lastPage),
    [PAGE_HEADERS.perPage]: String(list.pagination.perPage),
    [PAGE_HEADERS.total]: String(list.pagination.total),
  });
  return { data: list.data };
}
