import { PAGE_HEADERS } from '@gatehouse/engine/wire';
import type { AxiosResponse } from 'axios';
import type { ReadClient } from './cancellable-reads.js';

/** How the server counts an index (`Prefer: count=...`); see docs/guides/queries-and-pagination.md. */
export type CountPreference = 'exact' | 'planned' | 'estimated' | 'none';

/** Pagination as the server reports it in response headers; null where a header is missing. */
export interface IndexMeta {
  /** Null for a page read by cursor. */
  currentPage: number | null;
  /** Null, like total, when the index was read with `count: 'none'`. */
  lastPage: number | null;
  perPage: number | null;
  total: number | null;
  /** The total is the server's estimate (`count: 'planned'` or `'estimated'` on a large table). */
  totalEstimated: boolean;
  /** The count the server applied, when one was asked for. */
  countApplied: CountPreference | null;
  /** Where the next page starts (`?cursor=`); null on the last page. */
  nextCursor: string | null;
}

export interface IndexPage<T> {
  data: T[];
  meta: IndexMeta;
}

// Axios keys headers in lower case.
function header(response: AxiosResponse, name: string): string | null {
  const value = response.headers[name.toLowerCase()] as unknown;
  return typeof value === 'string' && value !== '' ? value : null;
}

function numberHeader(response: AxiosResponse, name: string): number | null {
  const value = Number.parseInt(header(response, name) ?? '', 10);
  return Number.isNaN(value) ? null : value;
}

export async function fetchIndexPage<T>(
  http: ReadClient,
  url: string,
  params: Record<string, string>,
  count?: CountPreference,
): Promise<IndexPage<T>> {
  const response = await http.get<{ data: T[] }>(url, { params, headers: count ? { Prefer: `count=${count}` } : {} });
  const applied = header(response, PAGE_HEADERS.preferenceApplied)?.match(/count=(\w+)/)?.[1] ?? null;
  return {
    data: response.data.data,
    meta: {
      currentPage: numberHeader(response, PAGE_HEADERS.currentPage),
      lastPage: numberHeader(response, PAGE_HEADERS.lastPage),
      perPage: numberHeader(response, PAGE_HEADERS.perPage),
      total: numberHeader(response, PAGE_HEADERS.total),
      totalEstimated: header(response, PAGE_HEADERS.totalEstimated) === 'true',
      countApplied: applied as CountPreference | null,
      nextCursor: header(response, PAGE_HEADERS.nextCursor),
    },
  };
}
