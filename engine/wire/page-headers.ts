/** The response headers that carry an index page's position: the server sets them, the client reads them. */
export const PAGE_HEADERS = {
  currentPage: 'X-Current-Page',
  lastPage: 'X-Last-Page',
  perPage: 'X-Per-Page',
  total: 'X-Total',
  /** `true` when the total is the planner's estimate (`Prefer: count=planned|estimated`). */
  totalEstimated: 'X-Total-Estimated',
  /** The opaque keyset cursor of the next page (`?cursor=`). */
  nextCursor: 'X-Next-Cursor',
  preferenceApplied: 'Preference-Applied',
} as const;
