/** Joins path segments, encoding each and dropping absent ones: `joinPath('acme', null, 'posts')` is `/acme/posts`. */
export function joinPath(...segments: (string | number | null | undefined)[]): string {
  return segments
    .filter((segment): segment is string | number => segment !== null && segment !== undefined && segment !== '')
    .map((segment) => `/${encodeURIComponent(String(segment))}`)
    .join('');
}
