import type { Router, RouterContext, RouterMiddleware } from '@koa/router';
import type { GatehouseAbility } from '@gatehouse/engine';
import type { TenantTransaction } from '../db/with-tenant.js';
import type { RouteGroup } from '../models/route-group.js';
import type { Refusal } from './errors/refusal.js';

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
}

/** What the middleware chain learns about a request, in the order it learns it. */
export interface GatehouseState {
  requestId: string;
  routeGroup?: RouteGroup;
  /** The organization slug carried by the host, for subdomain tenancy. */
  hostOrganization?: string | null;
  auth?: Authentication;
  organization?: CurrentOrganization;
  membership?: Membership;
  trx?: TenantTransaction;
  authorization?: Authorization;
  /** The gate that refused the request, once the error handler has answered it. */
  refusal?: Refusal;
}

export type GatehouseContext = RouterContext<GatehouseState>;
export type GatehouseMiddleware = RouterMiddleware<GatehouseState>;
/** What `router.routes()` returns: a mountable router. */
export type GatehouseRoutes = ReturnType<Router<GatehouseState>['routes']>;

/** Reads a piece of state an earlier middleware must have set; a missing one is a wiring bug. */
export function required<K extends keyof GatehouseState>(ctx: { state: GatehouseState }, key: K): NonNullable<GatehouseState[K]> {
  const value = ctx.state[key];
  if (value == null) throw new Error(`Middleware order: ctx.state.${String(key)} is not set`);
  return value as NonNullable<GatehouseState[K]>;
}
