import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { GatehouseMetrics } from '../observability/metrics.js';
import { refusalGate } from '../observability/refusal-gate.js';
import { HttpError } from './errors/http-error.js';
import { httpErrorFor } from './http-error-for.js';
import type { GatehouseState } from './state.js';

/**
 * Every error leaves as JSON `{message}`; nothing below ever answers with a stack trace. A
 * refusal counts as a denied decision of the gate that refused, when metrics are on.
 */
export function errorHandler(logger: Logger, metrics: GatehouseMetrics | null = null): Middleware<GatehouseState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (metrics) {
        const gate = refusalGate(error);
        if (gate) metrics.decided(gate, false);
      }
      const httpError = httpErrorFor(error);
      if (httpError === null) logger.error({ err: error, requestId: ctx.state.requestId }, 'unhandled error');
      else if (httpError.status >= 500) logger.warn({ err: error, requestId: ctx.state.requestId }, httpError.message);
      const answer = httpError ?? new HttpError(500, 'Server Error');
      ctx.status = answer.status;
      ctx.set(answer.headers);
      ctx.body = answer.body();
    }
  };
}
