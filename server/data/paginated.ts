import { PAGE_HEADERS } from '@gatehouse/engine/wire';
import type { GatehouseContext } from '../http/state.js';
import { JsonText } from './json-text.js';
import type { JsonRecordList, Pagination, RecordList } from './read-actions.js';

/**
 * A page as the service's clients read it: the rows as `{data}`, the position in headers.
 * `X-Total` and `X-Last-Page` are left out when the client asked for no count; an estimate says
 * so in `X-Total-Estimated`. `X-Next-Cursor` starts the next page by keyset (`?cursor=`).
 */
export function paginated(ctx: GatehouseContext, list: RecordList): { data: RecordList['data'] } {
  pageHeaders(ctx, list.pagination);
  return { data: list.data };
}

/** The same answer, its records' JSON written by PostgreSQL: `{"data":...}` around it, as JSON.stringify writes `{data}`. */
export function paginatedJson(ctx: GatehouseContext, list: JsonRecordList): JsonText {
  pageHeaders(ctx, list.pagination);
  return new JsonText(`{"data":${list.data.text}}`);
}

function pageHeaders(ctx: GatehouseContext, { currentPage, lastPage, perPage, total, estimated, nextCursor, countApplied }: Pagination): void {
  if (currentPage !== null) ctx.set(PAGE_HEADERS.currentPage, String(currentPage));
  if (lastPage !== null) ctx.set(PAGE_HEADERS.lastPage, String(lastPage));
  ctx.set(PAGE_HEADERS.perPage, String(perPage));
  if (total !== null) ctx.set(PAGE_HEADERS.total, String(total));
  if (estimated) ctx.set(PAGE_HEADERS.totalEstimated, 'true');
  if (nextCursor !== null) ctx.set(PAGE_HEADERS.nextCursor, nextCursor);
  if (countApplied !== null) ctx.set(PAGE_HEADERS.preferenceApplied, `count=${countApplied}`);
}
