import { useInfiniteQuery, type UseQueryResult } from '@tanstack/react-query';
import type { ReadClient } from '../http/cancellable-reads.js';
import { fetchIndexPage, type IndexMeta } from '../http/index-page.js';
import { bodyOf } from '../http/response-body.js';
import { requireBase } from '../urls/organization-required.js';
import { scopedKey } from '../cache/cache-keys.js';
import { readInSession } from '../cache/read-in-session.js';
import { retryTransient } from '../cache/retry.js';
import { modelUrl } from '../urls/data-url.js';
import { indexParams, type IndexQuery } from '../urls/index-params.js';
import { useDataScope } from './use-data-scope.js';
import { useScopedQuery } from './use-scoped-request.js';

export type ModelRecord = Record<string, unknown>;
export type RecordId = string | number;

export interface QueryHookOptions {
  /** False holds the request back, e.g. until another query has answered. */
  enabled?: boolean;
}

/** Relations and sparse fieldsets of a single record. */
export type ShowQuery = Pick<IndexQuery, 'include' | 'includes' | 'fields'>;

/** Which page of an audit trail, and how many entries a page holds (`per_page`). */
export type AuditQuery = Pick<IndexQuery, 'page' | 'perPage' | 'per_page'>;

export type ListResult<T> = Omit<UseQueryResult<T[]>, 'data'> & { data: T[] | undefined; meta: IndexMeta | undefined };

function useModelQuery<T>(
  model: string,
  keyParts: unknown[],
  request: (http: ReadClient, base: string) => Promise<T>,
  enabled: boolean,
) {
  return useScopedQuery(useDataScope(), model, keyParts, request, enabled);
}

/** A paged list under `url`: the records of one page plus `meta` from the pagination headers. */
function useListQuery<T>(model: string, keyParts: unknown[], url: (base: string) => string, query: IndexQuery | undefined, enabled: boolean) {
  const params = indexParams(query);
  const result = useModelQuery(
    model,
    [...keyParts, params, query?.count ?? null],
    (http, base) => fetchIndexPage<T>(http, url(base), params, query?.count),
    enabled,
  );
  return { ...result, data: result.data?.data, meta: result.data?.meta } as ListResult<T>;
}

/** `GET /{model}`: the records of one page plus `meta` from the pagination headers. */
export function useModelIndex<T = ModelRecord>(model: string, query?: IndexQuery, options: QueryHookOptions = {}) {
  return useListQuery<T>(model, ['index'], (base) => modelUrl(base, model), query, options.enabled !== false);
}

/** `GET /{model}/trashed`: soft-deleted records. */
export function useModelTrashed<T = ModelRecord>(model: string, query?: IndexQuery, options: QueryHookOptions = {}) {
  return useListQuery<T>(model, ['trashed'], (base) => modelUrl(base, model, null, 'trashed'), query, options.enabled !== false);
}

/**
 * Index pages one after another (`fetchNextPage`), each `{data, meta}`. The first page is
 * `query.page` (or `query.cursor`, or the first); each next one is read by keyset, from the
 * previous page's `X-Next-Cursor`, so rows inserted meanwhile neither repeat nor go missing and
 * a deep page costs what the first does. No next cursor: no next page.
 */
export function useModelInfinite<T = ModelRecord>(model: string, query: IndexQuery = {}, options: QueryHookOptions = {}) {
  const { http, base } = useDataScope();
  const { page, cursor, count, ...rest } = query;
  const params = indexParams(rest);
  const first = indexParams({ page, cursor });
  return useInfiniteQuery({
    queryKey: scopedKey(base, model, 'infinite', params, first, count ?? null),
    queryFn: ({ pageParam, signal }) =>
      readInSession(http, signal, (reads) =>
        fetchIndexPage<T>(reads, modelUrl(requireBase(base), model), { ...params, ...(pageParam === null ? first : { cursor: pageParam }) }, count),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.meta.nextCursor ?? undefined,
    enabled: options.enabled !== false && base !== null,
    retry: retryTransient,
  });
}

/** `GET /{model}/{id}`; waits while id is null or undefined. */
export function useModelShow<T = ModelRecord>(
  model: string,
  id: RecordId | null | undefined,
  query?: ShowQuery,
  options: QueryHookOptions = {},
) {
  const params = indexParams(query);
  return useModelQuery(
    model,
    ['show', id, params],
    (http, base) => bodyOf(http.get<T>(modelUrl(base, model, id), { params })),
    options.enabled !== false && id != null,
  );
}

/**
 * `GET /{model}/{id}/audit`: one page of the record's change history, oldest first, plus `meta`
 * from the pagination headers; the server pages a trail as it pages an index, so a long history
 * takes more than one page. Waits while id is null or undefined.
 */
export function useModelAudit<T = ModelRecord>(
  model: string,
  id: RecordId | null | undefined,
  query?: AuditQuery,
  options: QueryHookOptions = {},
) {
  return useListQuery<T>(model, ['audit', id], (base) => modelUrl(base, model, id, 'audit'), query, options.enabled !== false && id != null);
}

/** `GET /{model}/computed`: the aggregate values the model declares. */
export function useModelComputedAttributes<T = ModelRecord>(model: string, options: QueryHookOptions = {}) {
  return useModelQuery(
    model,
    ['computed'],
    (http, base) => bodyOf(http.get<T>(modelUrl(base, model, null, 'computed'))),
    options.enabled !== false,
  );
}
