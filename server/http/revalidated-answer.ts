import { createHash } from 'node:crypto';
import type { GatehouseContext } from './state.js';

/** Whether `If-None-Match` names `etag`, compared weakly as RFC 9110 asks of it (`*` names any). */
function noneMatchHolds(header: string, etag: string): boolean {
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.trim() === '*' || header.split(',').some((tag) => strip(tag) === strip(etag));
}

/**
 * Answers `body` as a private answer a client keeps and revalidates on every use: its ETag is a
 * digest of the body, so any change in it (a permission granted or revoked) is a new ETag, and a
 * matching `If-None-Match` gets a 304 without the body. The request's own `Cache-Control` is not
 * read: fetch sends `no-cache` beside every `If-None-Match` it sets, and Koa's `ctx.fresh` would
 * then never answer 304.
 */
export function answerRevalidated(ctx: GatehouseContext, body: unknown): void {
  const json = JSON.stringify(body);
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.etag = createHash('sha256').update(json).digest('base64url').slice(0, 32);
  ctx.type = 'application/json';
  ctx.body = json;
  const noneMatch = ctx.get('If-None-Match');
  if (noneMatch !== '' && noneMatchHolds(noneMatch, ctx.response.get('ETag'))) ctx.status = 304;
}
