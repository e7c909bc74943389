import type { AxiosInstance, AxiosRequestConfig, AxiosResponse } from 'axios';

/** What a query reads through: `get`, and `post` for reads that send a body (authorize checks). */
export type ReadClient = Pick<AxiosInstance, 'get' | 'post'>;

/**
 * The instance's reads, tied to react-query's signal for the query: when the query is cancelled
 * (its last component unmounted, `cancelQueries`, the query removed from the cache) the
 * request is aborted, so its answer reaches no one and the app's interceptors see a CanceledError.
 */
export function cancellableReads(http: AxiosInstance, signal: AbortSignal): ReadClient {
  return {
    get: <T, R = AxiosResponse<T>, D = unknown>(url: string, config?: AxiosRequestConfig<D>) =>
      http.get<T, R, D>(url, { ...config, signal }),
    post: <T, R = AxiosResponse<T>, D = unknown>(url: string, data?: D, config?: AxiosRequestConfig<D>) =>
      http.post<T, R, D>(url, data, { ...config, signal }),
  };
}
