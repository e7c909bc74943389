import type { Middleware } from 'koa';
import { CallerPresence } from '../db/connection/caller-presence.js';
import { isStatementCancelled } from '../db/connection/statement-cancelled.js';
import { CallerLeftError } from '../errors/caller-left-error.js';
import { RequestTimeoutError } from '../errors/request-timeout-error.js';
import { watchQueuedAnswer } from './queued-answer.js';
import type { GatehouseState } from './state.js';

/**
 * Gives the rest of the request its deadline, in its state: each transaction its route group's
 * stages open sets `statement_timeout` to `statementTimeoutMs`, and a client that closes its
 * connection before the answer cancels the statement running for it
 * (`db/transactions/request-deadline.ts`). A statement cancelled either
 * way has rolled its transaction back: past the deadline, the answer is a 503 saying so.
 */
export function requestDeadline(statementTimeoutMs: number): Middleware<GatehouseState> {
  return async (ctx, next) => {
    const caller = new CallerPresence();
    const left = () => {
      if (!ctx.res.writableFinished) caller.leave();
    };
    ctx.res.on('close', left);
    watchQueuedAnswer(ctx.req.socket, ctx.res, left);
    try {
      ctx.state.deadline = { statementTimeoutMs, caller };
      await next();
    } catch (error) {
      if (!isStatementCancelled(error)) throw error;
      throw caller.left ? new CallerLeftError() : new RequestTimeoutError(statementTimeoutMs);
    }
  };
}
