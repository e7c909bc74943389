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

/**
 * Whether a key that `scopedKey(base, model, kind, id, ...)` made is one of `kinds` (`show`,
 * `audit`) of that record. Ids compare as text: a page's route gives `'7'` where its Delete
 * button passes `7`.
 */
export function isRecordKey(key: readonly unknown[], model: string, kinds: readonly string[], id: string | number): boolean {
  return key[2] === model && kinds.includes(key[3] as string) && key[4] != null && String(key[4]) === String(id);
}
