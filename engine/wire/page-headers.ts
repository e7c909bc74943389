/** The response headers that carry an index page's position: the server sets them, the client reads them. */
export const PAGE_HEADERS = {
  currentPage: 'X-Current-Page',
  lastPage: 'X-Last-Page',
  perPage: 'X-Per-Page',
  total: 'X-Total',
} as const;
