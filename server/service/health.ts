import { ping } from '../db/repositories/ping.js';
import type { GatehouseMiddleware } from '../http/state.js';
import type { Services } from '../services.js';

/** 200 when the service can reach its database; the error handler turns an outage into 503. */
export function health(services: Services): GatehouseMiddleware {
  return async (ctx) => {
    await ping(services.db);
    ctx.body = { status: 'ok' };
  };
}
