import { chain } from '../http/chain.js';
import type { GatehouseRoutes } from '../http/state.js';
import { hostMatcher, type RouteGroup } from '../models/route-group.js';

// Groups whose prefix opens with the organization segment catch any first segment, so they go
// after the groups with a fixed first segment, the default group last of all.
const catchAll = (group: RouteGroup) => (group.prefix?.startsWith('{organization}') ? 1 : 0);

/**
 * A host that a domain group's pattern matches is served by those groups only; every other host
 * by the prefix groups.
 */
export function hostRouting(groups: readonly RouteGroup[], routesFor: (group: RouteGroup) => GatehouseRoutes): GatehouseRoutes {
  const domainGroups = groups
    .filter((group) => group.domain !== null)
    .map((group) => ({ matches: hostMatcher(group.domain!), routes: routesFor(group) }));
  const mainHost = chain(
    groups
      .filter((group) => group.domain === null)
      .sort((a, b) => catchAll(a) - catchAll(b) || Number(a.isDefault) - Number(b.isDefault))
      .map(routesFor),
  );
  return (ctx, next) => {
    const hosted = domainGroups.filter((group) => group.matches(ctx.hostname));
    return hosted.length > 0 ? chain(hosted.map((group) => group.routes))(ctx, next) : mainHost(ctx, next);
  };
}
