import { findActiveSession } from '../db/repositories/sessions.js';
import { SessionOfAnotherGroupError } from '../errors/session-of-another-group-error.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import type { Authentication, GatehouseContext, GatehouseMiddleware } from '../http/state.js';
import type { Services } from '../services.js';
import type { TokenClaims } from './token-service.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The verified claims of the bearer token, or null when there is none; a bad token is a 401. */
export async function tokenClaims(ctx: GatehouseContext, services: Services): Promise<TokenClaims | null> {
  const header = ctx.get('Authorization');
  if (header === '') return null;
  const token = BEARER.exec(header)?.[1];
  const claims = token ? await services.tokens.verify(token) : null;
  if (!claims) throw new UnauthenticatedError();
  return claims;
}

/** Whether a standing session may act in the request's route group. */
export function isSessionOfRequestGroup(ctx: GatehouseContext, claims: TokenClaims): boolean {
  const group = ctx.state.routeGroup?.name;
  return group === undefined || claims.routeGroup === group;
}

/** The refusal of a standing session of another route group. */
export function sessionOfAnotherGroup(services: Services, claims: TokenClaims): Error {
  // A session of a group the service no longer has can never work again: end it.
  const servedGroup = services.config.routeGroups.some((candidate) => candidate.name === claims.routeGroup);
  return servedGroup ? new SessionOfAnotherGroupError() : new UnauthenticatedError();
}

/**
 * The session behind the bearer token, or null when there is no token. A token that is present
 * but tampered, expired, signed by another key or revoked is a 401: signatures prove origin, only
 * the session row proves the session still stands. A live session of another route group is a 403.
 */
async function authenticationOf(ctx: GatehouseContext, services: Services): Promise<Authentication | null> {
  const claims = await tokenClaims(ctx, services);
  if (!claims) return null;
  const session = await findActiveSession(services.db, claims.sessionId);
  if (!session || session.user_id !== claims.userId || session.route_group !== claims.routeGroup) throw new UnauthenticatedError();
  if (!isSessionOfRequestGroup(ctx, claims)) throw sessionOfAnotherGroup(services, claims);
  return { user: { id: session.user_id, name: session.user_name, email: session.user_email }, sessionId: session.id };
}

/** 401 unless the request carries a live session; 403 when it belongs to another route group. */
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
