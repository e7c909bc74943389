import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { GatehouseState } from './state.js';

/**
 * One structured line per request. It names the path without its query string and never the
 * headers or body, so bearer tokens, passwords and reset or invitation tokens stay out of logs.
 */
export function requestLogger(logger: Logger): Middleware<GatehouseState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      logger.info(
        {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          routeGroup: ctx.state.routeGroup?.name,
          userId: ctx.state.auth?.user.id,
          organization: ctx.state.organization?.slug,
        },
        'request',
      );
    }
  };
}
