import type { Middleware } from 'koa';
import { isStatementCancelled } from '../db/connection/statement-cancelled.js';
import { CallerLeftError } from '../errors/caller-left-error.js';
import { RequestTimeoutError } from '../errors/request-timeout-error.js';
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
    const caller = new AbortController();
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) caller.abort();
    });
    try {
      ctx.state.deadline = { statementTimeoutMs, signal: caller.signal };
      await next();
    } catch (error) {
      if (!isStatementCancelled(error)) throw error;
      throw caller.signal.aborted ? new CallerLeftError() : new RequestTimeoutError(statementTimeoutMs);
    }
  };
}
