import { dataBases, groupBases, tenantBases, type RouteGroup } from '../models/route-group.js';
import { AUTH_ROUTES } from './auth-routes.js';
import type { RouteDefinition } from './route-definition.js';
import { GROUP_ROUTES, TENANT_ROUTES, TENANTLESS_ROUTES } from './tenant-routes.js';

/** A set of routes at one place: `{basePath}{base}{prefix}{route.path}`. */
export interface PlacedRoutes {
  routes: readonly RouteDefinition[];
  base: string;
  prefix: string;
  /** The base is the group's second spelling of it (`/{group}/...`). */
  prefixed: boolean;
}

const spelled = (bases: readonly string[]) => bases.map((base, index) => ({ base, prefixed: index > 0 }));

/**
 * Where a route group serves the service's own route sets, in the order they answer: its auth
 * set and organization creation at each of its bases, the tenant-only operations at each tenant
 * base. The route table places them ahead of the group's data routes.
 */
export function groupRouteSets(group: RouteGroup): PlacedRoutes[] {
  if (!group.auth) return [];
  const sets: PlacedRoutes[] = [];
  for (const at of spelled(groupBases(group))) {
    sets.push({ routes: AUTH_ROUTES, ...at, prefix: '/auth' });
    if (group.tenancy !== 'none') sets.push({ routes: GROUP_ROUTES, ...at, prefix: '' });
  }
  for (const at of spelled(tenantBases(group))) sets.push({ routes: TENANT_ROUTES, ...at, prefix: '' });
  if (group.tenancy === 'none') for (const at of spelled(dataBases(group))) sets.push({ routes: TENANTLESS_ROUTES, ...at, prefix: '' });
  return sets;
}
