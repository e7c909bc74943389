import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { GatehouseMetrics } from '../observability/metrics.js';
import { refusalGate } from '../observability/refusal-gate.js';
import { markDenied } from '../permissions/denied-refusal.js';
import { HttpError } from './http-error.js';
import { httpErrorFor } from './http-error-for.js';
import type { GatehouseState, Membership } from './state.js';

export interface ErrorAnswers {
  /** Whether a 403 says why in `reason` (`explain.responses`). */
  reasons: boolean;
  /** Counts each refusal as a denied decision of the gate that refused, when metrics are on. */
  metrics?: GatehouseMetrics | null;
}

/**
 * A 403's reason: its gate, what the caller lacks and whether a deny of their own took it away.
 * 401s and 404s stay silent about theirs.
 */
function reasonOf(answer: HttpError, membership: Membership | undefined): Record<string, unknown> {
  if (answer.status !== 403 || answer.refusal === undefined) return {};
  const { gate, permission, policy, fields, include, denied, conditions } = markDenied(answer.refusal, membership);
  return { reason: Object.fromEntries(Object.entries({ gate, permission, policy, fields, include, denied, conditions }).filter(([, value]) => value !== undefined)) };
}

/**
 * Every error leaves as JSON `{message}`, a 403 with its `reason`; nothing below ever answers
 * with a stack trace. A refusal is kept in `ctx.state.refusal` for the decision log.
 */
export function errorHandler(logger: Logger, { reasons, metrics = null }: ErrorAnswers): Middleware<GatehouseState> {
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
      if (answer.refusal !== undefined) ctx.state.refusal = answer.refusal;
      ctx.status = answer.status;
      ctx.set(answer.headers);
      ctx.body = { ...answer.body(), ...(reasons ? reasonOf(answer, ctx.state.membership) : {}) };
    }
  };
}
