import type { Context } from 'koa';
import { BadRequestError } from '../errors/bad-request-error.js';

// PostgreSQL text cannot hold U+0000: a string carrying one fails whatever statement it reaches (a
// column, a filter, a search) instead of being stored or matched. No input of the service needs
// it, so it is refused once, here, rather than wherever a string meets SQL.

/** Whether any string or key in a parsed body or query holds U+0000; iterative, as bodies nest deeper than the stack. */
function holdsNul(input: unknown): boolean {
  const pending = [input];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string' && value.includes('\u0000')) return true;
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return true;
      pending.push(item);
    }
  }
  return false;
}

/** 400 for a NUL character in the query string or the parsed body. */
export function rejectNul(ctx: Context): void {
  if (holdsNul(ctx.query) || holdsNul(ctx.request.body)) throw new BadRequestError('The request must not contain NUL characters (\\u0000).');
}
