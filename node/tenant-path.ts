import { GatehouseError } from './errors.js';

// `.` and `..` are removed by URL resolution, even percent-encoded: `acme/../evilv` would reach `evilv`.
const DOT_SEGMENT = /^\.{0,2}$/;

/**
 * `org` (a slug, or `{group}/{org}`) as the tenant path of a URL: each segment percent-encoded,
 * so `?`, `#`, `%` or `\` stay part of the slug; an empty or dot segment names no organization and
 * is refused before anything is sent.
 */
export function tenantPath(org: string): string {
  const segments = org.split('/');
  if (segments.some((segment) => DOT_SEGMENT.test(segment))) throw new GatehouseError('invalid', `"${org}" is not an organization path.`);
  return segments.map(encodeURIComponent).join('/');
}
