import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { GatehouseState } from './state.js';

/** The header that carries a request's id both ways. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

// A caller's id is kept only when it cannot smuggle anything into logs or headers.
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(): Middleware<GatehouseState> {
  return (ctx, next) => {
    const incoming = ctx.get(REQUEST_ID_HEADER);
    ctx.state.requestId = ACCEPTABLE.test(incoming) ? incoming : randomUUID();
    ctx.set(REQUEST_ID_HEADER, ctx.state.requestId);
    return next();
  };
}
