import type { Middleware } from 'koa';
import { NotFoundError } from '../errors/not-found-error.js';
import type { GatehouseState } from './state.js';

/** The end of the chain: every router passed, so the route does not exist. */
export function notFound(): Middleware<GatehouseState> {
  return async () => {
    throw new NotFoundError('Route not found.');
  };
}
