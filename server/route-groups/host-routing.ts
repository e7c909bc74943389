import type { GatehouseMiddleware } from '../http/state.js';
import { hostMatcher } from '../models/route-group.js';
import type { RouteTable } from '../routes/route-table.js';
import type { Services } from '../services.js';
import { compileRoute, routeMatcher, type CompiledRoute, type RouteDispatch } from './route-matcher.js';

/**
 * A host that a domain group's pattern matches is served by those groups only; every other host
 * by the main host's groups, in the table's order. The host is read once per request, and each
 * set of groups a host can pick is one matcher over their routes.
 */
export function hostRouting(table: RouteTable, services: Services): GatehouseMiddleware {
  const compile = (routes: RouteTable['groups'][number]['routes']) => routes.map((placed) => compileRoute(placed, services));
  const mainHost = routeMatcher(table.mainHost.flatMap(({ routes }) => compile(routes)));
  const domains = table.domains.map(({ group, routes }) => ({ group, matches: hostMatcher(group.domain!), routes: compile(routes) }));
  // The groups a host matches, by their positions: a host matches one group, rarely several.
  const hosted = new Map<string, RouteDispatch>();
  const matcherOf = (indexes: number[]) => {
    const key = indexes.join();
    let dispatch = hosted.get(key);
    if (!dispatch) hosted.set(key, (dispatch = routeMatcher(indexes.flatMap((index): CompiledRoute[] => domains[index]!.routes))));
    return dispatch;
  };

  if (domains.length === 0) return (ctx, next) => mainHost(ctx, next);
  return (ctx, next) => {
    const organizations = new Map<object, string | null>();
    const indexes: number[] = [];
    domains.forEach((domain, index) => {
      const match = domain.matches(ctx.hostname);
      if (!match) return;
      organizations.set(domain.group, match.organization);
      indexes.push(index);
    });
    if (indexes.length === 0) return mainHost(ctx, next);
    return matcherOf(indexes)(ctx, next, (group) => organizations.get(group) ?? null);
  };
}
