import type { Router } from '@koa/router';
import type { Middleware, ParameterizedContext } from 'koa';
import type { AccessPlan, GatehouseAbility } from '@gatehouse/engine';
import type { TenantTransaction } from '../db/transactions/tenant-transaction.js';
import type { RequestDeadline } from '../db/transactions/request-deadline.js';
import type { RouteGroup } from '../models/route-group.js';
import type { Refusal } from '../errors/refusal.js';
import type { DecisionTarget } from '../decisions/decision-event.js';

export interface AuthUser {
  id: number;
  name: string;
  email: string;
}

export interface Authentication {
  user: AuthUser;
  sessionId: string;
}

export interface CurrentOrganization {
  id: number;
  name: string;
  slug: string;
}

export interface Membership {
  roleId: number;
  roleSlug: string;
  /** The role's permissions in the organization. */
  rolePermissions: string[];
  granted: string[];
  denied: string[];
}

export interface Authorization {
  /** The caller's role slug in the organization; null outside tenancy. */
  role: string | null;
  /** Shared by every request with the same permission sources: never changed in place. */
  permissions: readonly string[];
  ability: GatehouseAbility;
  /** Which records of a model the caller may act on (record conditions), compiled with the ability. */
  plan(slug: string, action: string): AccessPlan;
}

// The stages a request passes, each a state that adds what one step of its chain learned. A
// handler is typed by the state its chain establishes (`route-groups/request-chains.ts`), so
// reading what its chain does not establish is a compile error.

/** Every request, from the application's first middleware on. */
export interface RequestState {
  requestId: string;
  /** What the request's transactions are bounded by (`request-deadline.ts`). */
  deadline: RequestDeadline;
  /** The gate that refused the request, once the error handler has answered it. */
  refusal?: Refusal;
  /** What a data request is about (its model, action and record), for the decision log. */
  decisionTarget?: DecisionTarget;
  /** Nothing the session reads next depends on what the route wrote (`http/no-write-position.ts`). */
  noWritePosition?: true;
}

/** A request of a route group. */
export interface GroupState extends RequestState {
  routeGroup: RouteGroup;
  /** The organization slug carried by the host, for subdomain tenancy. */
  hostOrganization?: string | null;
}

/** The caller's session stands. */
export interface SessionState extends RequestState {
  auth: Authentication;
}

/** A caller whose session of the request's route group stands. */
export interface SignedInState extends GroupState, SessionState {
  /** Whether the caller is a member of the route group, as the request's opening answered it. */
  groupMember: boolean;
}

/** A data request: it runs in a tenant transaction, with the caller's permissions loaded. */
export interface DataState extends GroupState {
  auth?: Authentication;
  organization?: CurrentOrganization;
  membership?: Membership;
  trx: TenantTransaction;
  authorization: Authorization;
}

/** A signed-in member's request in its tenant transaction (the organization where the group has tenancy). */
export interface MemberState extends DataState {
  auth: Authentication;
}

/** A member acting in the addressed organization. */
export interface TenantMemberState extends MemberState {
  organization: CurrentOrganization;
  membership: Membership;
}

/**
 * What the application's own middleware (logging, metrics, the decision log) may find about any
 * request, whichever chain ran: everything past the request id is optional.
 */
export interface GatehouseState extends RequestState {
  routeGroup?: RouteGroup;
  hostOrganization?: string | null;
  auth?: Authentication;
  organization?: CurrentOrganization;
  membership?: Membership;
  trx?: TenantTransaction;
  authorization?: Authorization;
}

/**
 * What a route adds to Koa's context. Koa's own router context also carries the router, typed by
 * the state in a way that ties each state to itself alone; without it, a handler of a smaller
 * state fits behind every chain that establishes more.
 */
interface RouteContext {
  params: Record<string, string>;
}

export type GatehouseContext<State = GatehouseState> = ParameterizedContext<State, RouteContext>;
export type GatehouseMiddleware<State = GatehouseState> = Middleware<State, RouteContext>;
/** What `router.routes()` returns: a mountable router. */
export type GatehouseRoutes = ReturnType<Router<GatehouseState>['routes']>;

/**
 * One step of a request chain: it learns `Learned` about the request and runs the rest of the
 * chain with it. `next` takes what was learned, so a stage cannot pass on without it.
 */
export type Stage<In, Learned> = (ctx: GatehouseContext<In>, next: (learned: Learned) => Promise<void>) => Promise<void>;
