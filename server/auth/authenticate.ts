import { findActiveSession } from '../db/repositories/sessions.js';
import { UnauthenticatedError } from '../http/errors/unauthenticated-error.js';
import type { Authentication, GatehouseContext, GatehouseMiddleware } from '../http/state.js';
import type { Services } from '../services.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The session behind the bearer token, or null when there is no token. A token that is present
 * but tampered, expired, signed by another key, revoked, or issued for another route group is
 * rejected: signatures prove origin, only the session row proves the session still stands.
 */
async function authenticationOf(ctx: GatehouseContext, services: Services): Promise<Authentication | null> {
  const header = ctx.get('Authorization');
  if (header === '') return null;
  const token = BEARER.exec(header)?.[1];
  const claims = token ? await services.tokens.verify(token) : null;
  if (!claims) throw new UnauthenticatedError();
  const group = ctx.state.routeGroup?.name;
  if (group !== undefined && claims.routeGroup !== group) throw new UnauthenticatedError();
  const session = await findActiveSession(services.db, claims.sessionId);
  if (!session || session.user_id !== claims.userId || session.route_group !== claims.routeGroup) throw new UnauthenticatedError();
  return { user: { id: session.user_id, name: session.user_name, email: session.user_email }, sessionId: session.id };
}

/** 401 unless the request carries a live session of the request's route group. */
export function authenticate(services: Services): GatehouseMiddleware {
  return async (ctx, next) => {
    const authentication = await authenticationOf(ctx, services);
    if (!authentication) throw new UnauthenticatedError();
    ctx.state.auth = authentication;
    await next();
  };
}

/** Guests pass; a token, when sent, must still be valid. */
export function authenticateIfPresent(services: Services): GatehouseMiddleware {
  return async (ctx, next) => {
    const authentication = await authenticationOf(ctx, services);
    if (authentication) ctx.state.auth = authentication;
    await next();
  };
}
