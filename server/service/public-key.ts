import type { GatehouseMiddleware } from '../http/state.js';
import type { Services } from '../services.js';

/**
 * The PASERK k4.public keys that verify this service's tokens, each with the id tokens name in
 * their footer; `key` and `id` are the current signing key's. A verifier learns from them only
 * that a token is genuine and unexpired; whether the session was revoked (logout, password reset)
 * only the session store knows.
 */
export function publicKey(services: Services): GatehouseMiddleware {
  return async (ctx) => {
    const [current, ...previous] = services.tokens.verificationKeys;
    // Short-lived, because a rotation signs new tokens at once with a key a cached list lacks.
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = {
      key: current!.paserk,
      id: current!.id,
      version: 'v4',
      purpose: 'public',
      keys: [{ id: current!.id, key: current!.paserk, current: true }, ...previous.map((key) => ({ id: key.id, key: key.paserk, current: false }))],
    };
  };
}
