import type { GatehouseContext } from '../http/state.js';
import type { RecordList } from './read-actions.js';

/**
 * A page as the contract's clients read it: the rows as `{data}`, the position in headers.
 * `X-Total` and `X-Last-Page` are left out when the client asked for no count; an estimate says
 * so in `X-Total-Estimated`. `X-Next-Cursor` starts the next page by keyset (`?cursor=`).
 */
export function paginated(ctx: GatehouseContext, list: RecordList): { data: RecordList['data'] } {
  const { currentPage, lastPage, perPage, total, estimated, nextCursor, countApplied } = list.pagination;
  if (currentPage !== null) ctx.set('X-Current-Page', String(currentPage));
  if (lastPage !== null) ctx.set('X-Last-Page', String(lastPage));
  ctx.set('X-Per-Page', String(perPage));
  if (total !== null) ctx.set('X-Total', String(total));
  if (estimated) ctx.set('X-Total-Estimated', 'true');
  if (nextCursor !== null) ctx.set('X-Next-Cursor', nextCursor);
  if (countApplied !== null) ctx.set('Preference-Applied', `count=${countApplied}`);
  return { data: list.data };
}
