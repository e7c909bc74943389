import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { GatehouseError } from '@gatehouse/engine';
import { isSchemaMissing } from '../db/schema-missing.js';
import type { GatehouseMetrics } from '../observability/metrics.js';
import { refusalGate } from '../observability/refusal-gate.js';
import { isDatabaseUnavailable } from './database-unavailable.js';
import { HttpError } from './errors/http-error.js';
import { NotMigratedError } from './errors/not-migrated-error.js';
import { ServiceUnavailableError } from './errors/service-unavailable-error.js';
import type { GatehouseState } from './state.js';

/** Turns anything thrown below into an HTTP error; null for a fault of the service itself. */
function toHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  // Engine errors (403 policy denials, forbidden fields and includes, 400 bad includes) carry a
  // status and a message meant for the caller.
  if (error instanceof GatehouseError) return new HttpError(error.status, error.message);
  if (isDatabaseUnavailable(error)) return new ServiceUnavailableError();
  return isSchemaMissing(error) ? new NotMigratedError() : null;
}

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
      const httpError = toHttpError(error);
      if (httpError === null) logger.error({ err: error, requestId: ctx.state.requestId }, 'unhandled error');
      else if (httpError.status >= 500) logger.warn({ err: error, requestId: ctx.state.requestId }, httpError.message);
      const answer = httpError ?? new HttpError(500, 'Server Error');
      ctx.status = answer.status;
      ctx.set(answer.headers);
      ctx.body = answer.body();
    }
  };
}
