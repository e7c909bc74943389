import { openedSession, type OpenedRequest } from '../db/transactions/request-transaction.js';
import { keepsWritePosition, keepWritePosition } from '../db/replicas/session-write-position.js';
import { SessionOfAnotherGroupError } from '../errors/session-of-another-group-error.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import type { Authentication, GatehouseContext, GroupState, RequestState, SessionState, SignedInState, Stage } from '../http/state.js';
import type { RouteGroup } from '../models/route-group.js';
import type { Services } from '../services.js';
import type { TokenClaims } from './token-service.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Claims a request's earlier stage verified (its fair share's), for its later ones (its session's): a signature is checked once. */
const verifiedEarlier = new WeakMap<GatehouseContext<RequestState>, TokenClaims | null>();

/** The verified claims of the bearer token, or null when there is none; a bad token is a 401. */
export async function tokenClaims(ctx: GatehouseContext<RequestState>, services: Services): Promise<TokenClaims | null> {
  const known = verifiedEarlier.get(ctx);
  if (known !== undefined) return known;
  const header = ctx.get('Authorization');
  if (header === '') return null;
  const token = BEARER.exec(header)?.[1];
  const claims = token ? await services.tokens.verify(token) : null;
  if (!claims) throw new UnauthenticatedError();
  return claims;
}

/** tokenClaims, kept for the request's later stages: for a stage that reads them before the one that checks the session. */
export async function rememberedTokenClaims(ctx: GatehouseContext<RequestState>, services: Services): Promise<TokenClaims | null> {
  const claims = await tokenClaims(ctx, services);
  verifiedEarlier.set(ctx, claims);
  return claims;
}

/** Whether a standing session may act in the request's route group (any, outside the groups). */
export function isSessionOfGroup(group: RouteGroup | null, claims: TokenClaims): boolean {
  return group === null || claims.routeGroup === group.name;
}

/** The refusal of a standing session of another route group. */
export function sessionOfAnotherGroup(services: Services, claims: TokenClaims): Error {
  // A session of a group the service no longer has can never work again: end it.
  const servedGroup = services.config.routeGroups.some((candidate) => candidate.name === claims.routeGroup);
  return servedGroup ? new SessionOfAnotherGroupError() : new UnauthenticatedError();
}

/** The caller, once the request's opening found the token's session standing. */
export function authenticationOf(claims: TokenClaims, session: NonNullable<OpenedRequest['session']>): Authentication {
  return { user: { id: claims.userId, name: session.userName, email: session.userEmail }, sessionId: claims.sessionId };
}

type SessionFacts = Pick<SignedInState, 'auth' | 'groupMember'>;

/**
 * The session behind the bearer token, or null when there is no token. Whether it stands and
 * whether its user is a member of the route group are the request opening's answers
 * (`db/transactions/request-transaction.ts`), the same that open a member's tenant transaction. A token that is
 * present but tampered, expired, signed by another key or revoked is a 401: signatures prove
 * origin, only the session row proves the session still stands. A live session of another route
 * group is a 403.
 */
async function openSession(ctx: GatehouseContext<RequestState>, services: Services, group: RouteGroup | null): Promise<SessionFacts | null> {
  const claims = await tokenClaims(ctx, services);
  if (!claims) return null;
  const ofGroup = isSessionOfGroup(group, claims);
  const opened = await openedSession(services.db, {
    sessionId: claims.sessionId,
    userId: claims.userId,
    claimedRouteGroup: claims.routeGroup,
    openContext: group !== null && ofGroup,
    routeGroup: group?.name ?? null,
  }, ctx.state.deadline);
  if (!opened.session) throw new UnauthenticatedError();
  if (!ofGroup) throw sessionOfAnotherGroup(services, claims);
  return { auth: authenticationOf(claims, opened.session), groupMember: opened.groupMember };
}

/** 401 unless the request carries a live session; 403 when it belongs to another route group. */
export function authenticate(services: Services): Stage<GroupState, SessionFacts> {
  return async (ctx, next) => {
    const session = await openSession(ctx, services, ctx.state.routeGroup);
    if (!session) throw new UnauthenticatedError();
    await next(session);
    if (keepsWritePosition(ctx, services)) await keepWritePosition(services, session.auth.sessionId, ctx.state.deadline);
  };
}

/** 401 unless the request carries a live session, of any route group: for requests outside the groups. */
export function authenticateAnyGroup(services: Services): Stage<RequestState, Pick<SessionState, 'auth'>> {
  return async (ctx, next) => {
    const session = await openSession(ctx, services, null);
    if (!session) throw new UnauthenticatedError();
    await next({ auth: session.auth });
    if (keepsWritePosition(ctx, services)) await keepWritePosition(services, session.auth.sessionId, ctx.state.deadline);
  };
}

/** Guests pass; a token, when sent, must still be valid. */
export function authenticateIfPresent(services: Services): Stage<RequestState, Partial<Pick<SessionState, 'auth'>>> {
  return async (ctx, next) => {
    const session = await openSession(ctx, services, null);
    await next(session ? { auth: session.auth } : {});
    if (session && keepsWritePosition(ctx, services)) await keepWritePosition(services, session.auth.sessionId, ctx.state.deadline);
  };
}
