import type { Middleware } from 'koa';
import { BadRequestError } from '../errors/bad-request-error.js';
import type { GatehouseState } from './state.js';

/**
 * HTTP/1.1 requires a Host header (RFC 9112 3.2). Node's server would refuse its absence with an
 * empty 400 of its own, so the server lets such requests through to here, where the answer is
 * JSON like every other error. HTTP/1.0 may omit it.
 */
export function requireHost(): Middleware<GatehouseState> {
  return (ctx, next) => {
    if (ctx.req.httpVersion !== '1.0' && ctx.get('Host') === '') throw new BadRequestError('The request must carry a Host header.');
    return next();
  };
}
