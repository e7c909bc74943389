import { createHash } from 'node:crypto';
import type { GatehouseContext } from './state.js';

/**
 * Answers `body` as a private answer a client keeps and revalidates on every use: its ETag is a
 * digest of the body, so any change in it (a permission granted or revoked) is a new ETag, and a
 * matching `If-None-Match` gets a 304 without the body.
 */
export function answerRevalidated(ctx: GatehouseContext, body: unknown): void {
  const json = JSON.stringify(body);
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.etag = createHash('sha256').update(json).digest('base64url').slice(0, 32);
  ctx.type = 'application/json';
  ctx.body = json;
  if (ctx.fresh) ctx.status = 304;
}
