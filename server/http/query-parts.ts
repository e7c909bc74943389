import type { Context } from 'koa';
import { BadRequestError } from '../errors/bad-request-error.js';
import { MAX_QUERY_PARAMETERS } from '../models/request-limits.js';

/** 400 for a query string of more parts than the limit; it reads the raw string, so call it before anything reads `ctx.query`. */
export function rejectLongQuery(ctx: Context): void {
  const query = ctx.querystring;
  let parts = query === '' ? 0 : 1;
  for (let at = query.indexOf('&'); at !== -1 && parts <= MAX_QUERY_PARAMETERS; at = query.indexOf('&', at + 1)) parts += 1;
  if (parts > MAX_QUERY_PARAMETERS) throw new BadRequestError(`Too many query parameters: at most ${MAX_QUERY_PARAMETERS}.`);
}
