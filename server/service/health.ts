import type { GatehouseMiddleware } from '../http/state.js';
import type { RequestDeadline } from '../db/transactions/request-deadline.js';

/** Liveness: the process answers HTTP. Never touches the database, so an outage restarts nothing. */
export function health(): GatehouseMiddleware {
  return (ctx) => {
    ctx.body = { status: 'ok' };
  };
}

/** Readiness: 200 once the database answers and is migrated, else 503 `{message}` saying why. */
export function ready(check: (deadline: RequestDeadline) => Promise<void>): GatehouseMiddleware {
  return async (ctx) => {
    await check(ctx.state.deadline);
    ctx.body = { status: 'ready' };
  };
}
