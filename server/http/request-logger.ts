import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Observability } from '../observability/observability.js';
import { requestScope } from '../observability/request-scope.js';
import { unredactedLines } from '../observability/unredacted-lines.js';
import { activeTraceId } from '../observability/request-span.js';
import type { GatehouseState } from './state.js';

/**
 * One structured line per request. It names the path without its query string and never the
 * headers or body, so bearer tokens, passwords and reset or invitation tokens stay out of logs;
 * a refusal's line carries its `reason` as the decision log keeps it (the gate that refused and
 * what the caller lacks: a 401's and a 404's too, and whether or not the answer explains
 * itself), and a traced request's its `traceId`. With stage logs on, the request's opening and
 * statements are logged at debug level beneath it.
 */
export function requestLogger(logger: Logger, { stageLogs, tracer }: Pick<Observability, 'stageLogs' | 'tracer'>): Middleware<GatehouseState> {
  // Every field of the line is picked below, and none is a secret.
  const lines = unredactedLines(logger);
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await (stageLogs ? requestScope.run(logger.child({ requestId: ctx.state.requestId }), next) : next());
    } finally {
      lines.info(
        {
          requestId: ctx.state.requestId,
          traceId: tracer ? activeTraceId() : undefined,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          routeGroup: ctx.state.routeGroup?.name,
          userId: ctx.state.auth?.user.id,
          organization: ctx.state.organization?.slug,
          reason: ctx.state.refusal,
        },
        'request',
      );
    }
  };
}
