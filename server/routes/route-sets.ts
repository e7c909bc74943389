import type Router from '@koa/router';
import type { GatehouseState } from '../http/state.js';
import { dataBases, groupBases, tenantBases, type RouteGroup } from '../models/route-group.js';
import type { Services } from '../services.js';
import { AUTH_ROUTES } from './auth-routes.js';
import type { Mount, RouteDefinition } from './route-definition.js';
import { GROUP_ROUTES, TENANT_ROUTES, TENANTLESS_ROUTES } from './tenant-routes.js';

/** A set of routes at one place: `{basePath}{base}{prefix}{route.path}`. */
export interface PlacedRoutes {
  routes: readonly RouteDefinition[];
  base: string;
  prefix: string;
}

/**
 * Where a route group serves the service's own route sets: its auth set and organization creation
 * at each of its bases, the tenant-only operations at each tenant base. The group's router and
 * the API reference both read this list.
 */
export function groupRouteSets(group: RouteGroup): PlacedRoutes[] {
  if (!group.auth) return [];
  const sets: PlacedRoutes[] = [];
  for (const base of groupBases(group)) {
    sets.push({ routes: AUTH_ROUTES, base, prefix: '/auth' });
    if (group.tenancy !== 'none') sets.push({ routes: GROUP_ROUTES, base, prefix: '' });
  }
  for (const base of tenantBases(group)) sets.push({ routes: TENANT_ROUTES, base, prefix: '' });
  if (group.tenancy === 'none') for (const base of dataBases(group)) sets.push({ routes: TENANTLESS_ROUTES, base, prefix: '' });
  return sets;
}

/** Adds each route with its middleware, built for where it is mounted. */
export function mountRoutes(router: Router<GatehouseState>, placed: PlacedRoutes, services: Services, group: RouteGroup | null): Router<GatehouseState> {
  const mount: Mount = { group, base: placed.base };
  for (const route of placed.routes) router[route.method](`${placed.prefix}${route.path}`, ...route.handle(services, mount));
  return router;
}
