import type { GatehouseContext } from '../http/state.js';
import type { RecordList } from './read-actions.js';

/** A page as the contract's clients read it: the rows as `{data}`, the position in headers. */
export function paginated(ctx: GatehouseContext, list: RecordList): { data: RecordList['data'] } {
  ctx.set({
    'X-Current-Page': String(list.pagination.currentPage),
    'X-Last-Page': String(list.pagination.lastPage),
    'X-Per-Page': String(list.pagination.perPage),
    'X-Total': String(list.pagination.total),
  });
  return { data: list.data };
}
