/** Every query of this library lives under this root, so a session change can drop them all at once. */
export const CACHE_ROOT = 'gatehouse';

/**
 * Keys start with the URL prefix the data came from, so switching organization or group never
 * serves another tenant's cached records; everything about one model shares the prefix
 * `[root, base, model]` that its mutations invalidate.
 */
export function scopedKey(base: string | null, resource: string, ...rest: unknown[]): unknown[] {
  return [CACHE_ROOT, base, resource, ...rest];
}
