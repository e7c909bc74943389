import { revokeSession } from '../db/repositories/sessions.js';
import type { GatehouseMiddleware, SessionState } from '../http/state.js';
import type { Services } from '../services.js';

/** Revokes the session the token names; the token is dead from then on, whatever its expiry. */
export function logout(services: Services): GatehouseMiddleware<SessionState> {
  return async (ctx) => {
    await revokeSession(services.db, ctx.state.auth.sessionId, ctx.state.deadline);
    ctx.body = { message: 'Logged out.' };
  };
}
