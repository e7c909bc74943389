import type { GatehouseMiddleware } from '../http/state.js';
import { hostMatcher, type RouteGroup } from '../models/route-group.js';

/** Marks the request as the group's, and for domain groups keeps the organization the host names. */
export function bindRouteGroup(group: RouteGroup): GatehouseMiddleware {
  const matchHost = group.domain ? hostMatcher(group.domain) : null;
  return async (ctx, next) => {
    ctx.state.routeGroup = group;
    if (matchHost) ctx.state.hostOrganization = matchHost(ctx.hostname)?.organization ?? null;
    await next();
  };
}
