import { PAGE_HEADERS } from '@gatehouse/engine/wire';
import type { GatehouseContext } from '../http/state.js';
import type { RecordList } from './read-actions.js';

/**
 * A page as the service's clients read it: the rows as `{data}`, the position in headers.
 * `X-Total` and `X-Last-Page` are left out when the client asked for no count; an estimate says
 * so in `X-Total-Estimated`. `X-Next-Cursor` starts the next page by keyset (`?cursor=`).
 */
export function paginated(ctx: GatehouseContext, list: RecordList): { data: RecordList['data'] } {
  const { currentPage, lastPage, perPage, total, estimated, nextCursor, countApplied } = list.pagination;
  if (currentPage !== null) ctx.set(PAGE_HEADERS.currentPage, String(currentPage));
  if (lastPage !== null) ctx.set(PAGE_HEADERS.lastPage, String(lastPage));
  ctx.set(PAGE_HEADERS.perPage, String(perPage));
  if (total !== null) ctx.set(PAGE_HEADERS.total, String(total));
  if (estimated) ctx.set(PAGE_HEADERS.totalEstimated, 'true');
  if (nextCursor !== null) ctx.set(PAGE_HEADERS.nextCursor, nextCursor);
  if (countApplied !== null) ctx.set(PAGE_HEADERS.preferenceApplied, `count=${countApplied}`);
  return { data: list.data };
}
