import type { GatehouseMiddleware } from '../http/state.js';
import type { Services } from '../services.js';

/**
 * The PASERK k4.public that verifies this service's tokens. A verifier learns from it only that a
 * token is genuine and unexpired; whether the session was revoked (logout, password reset) only
 * the session store knows.
 */
export function publicKey(services: Services): GatehouseMiddleware {
  return async (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = { key: services.tokens.publicKey, version: 'v4', purpose: 'public' };
  };
}
