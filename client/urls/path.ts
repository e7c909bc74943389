import { DotSegmentError } from './dot-segment-error.js';

/** What URL parsing resolves away: `%2e` and `%2E` too, so no encoding keeps these. */
const DOT_SEGMENTS = new Set(['.', '..']);

function encodedSegment(segment: string | number): string {
  const text = String(segment);
  if (DOT_SEGMENTS.has(text)) throw new DotSegmentError(text);
  return `/${encodeURIComponent(text)}`;
}

/**
 * Joins path segments, encoding each and dropping absent ones: `joinPath('acme', null, 'posts')`
 * is `/acme/posts`. A `.` or `..` segment is a DotSegmentError.
 */
export function joinPath(...segments: (string | number | null | undefined)[]): string {
  return segments
    .filter((segment): segment is string | number => segment !== null && segment !== undefined && segment !== '')
    .map(encodedSegment)
    .join('');
}
