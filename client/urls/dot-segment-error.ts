/**
 * Raised instead of sending a request with `.` or `..` as a path segment (a record id, a slug):
 * URL parsing resolves them against the path before the request leaves, encoded or not, so the
 * request would address another resource (`DELETE …/posts/..` is `DELETE …/`).
 */
export class DotSegmentError extends Error {
  constructor(readonly segment: string) {
    super(`"${segment}" cannot be a path segment: the request would address another URL.`);
    this.name = 'DotSegmentError';
  }
}
