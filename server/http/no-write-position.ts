import type { GatehouseMiddleware, RequestState } from './state.js';

/**
 * Marks a route after which, with replicas, its session keeps no write position
 * (`db/replicas/session-write-position.ts`): it writes nothing whatever its method (a question asked
 * in a body), or it ends the session. Each would otherwise cost an UPDATE on the primary, for
 * nothing the session reads next.
 */
export const noWritePosition = (): GatehouseMiddleware<RequestState> => (ctx, next) => {
  ctx.state.noWritePosition = true;
  return next();
};
