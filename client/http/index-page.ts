import { PAGE_HEADERS } from '@gatehouse/engine/wire';
import type { AxiosInstance, AxiosResponse } from 'axios';

/** Pagination as the server reports it in response headers; null where a header is missing. */
export interface IndexMeta {
  currentPage: number | null;
  lastPage: number | null;
  perPage: number | null;
  total: number | null;
}

export interface IndexPage<T> {
  data: T[];
  meta: IndexMeta;
}

// Axios keys headers in lower case.
function numberHeader(response: AxiosResponse, name: string): number | null {
  const value = Number.parseInt(String(response.headers[name.toLowerCase()] ?? ''), 10);
  return Number.isNaN(value) ? null : value;
}

export async function fetchIndexPage<T>(
  http: AxiosInstance,
  url: string,
  params: Record<string, string>,
): Promise<IndexPage<T>> {
  const response = await http.get<{ data: T[] }>(url, { params });
  return {
    data: response.data.data,
    meta: {
      currentPage: numberHeader(response, PAGE_HEADERS.currentPage),
      lastPage: numberHeader(response, PAGE_HEADERS.lastPage),
      perPage: numberHeader(response, PAGE_HEADERS.perPage),
      total: numberHeader(response, PAGE_HEADERS.total),
    },
  };
}

/** The next page number, or undefined once the last page has been read. */
export function nextPage(meta: IndexMeta): number | undefined {
  if (meta.currentPage === null || meta.lastPage === null) return undefined;
  return meta.currentPage < meta.lastPage ? meta.currentPage + 1 : undefined;
}
