import Router from '@koa/router';
import { dataRouter } from '../routes/data-routes.js';
import { chain } from '../http/chain.js';
import type { DataState, GatehouseRoutes, GatehouseState } from '../http/state.js';
import { groupRouteSets, mountRoutes } from '../routes/route-sets.js';
import type { Services } from '../services.js';
import { bindRouteGroup } from './bind-route-group.js';
import { dataChain } from './request-context.js';
import { dataBases, type RouteGroup } from '../models/route-group.js';

/** The registered models' generic routes where the group lists any, else the application's own. */
function groupDataRoutes(group: RouteGroup, services: Services): Router<DataState> | undefined {
  const { models, dataRoutes } = services.config;
  if (models) return group.models.length > 0 ? dataRouter(models, services.cursors, services.observability) : undefined;
  // A router typed by the looser `GatehouseState` reads the same state, with every field optional.
  return dataRoutes?.(group) as Router<DataState> | undefined;
}

/**
 * Everything one route group serves below the base path: the route sets of `groupRouteSets`
 * (auth, organization creation, tenant-only operations) and the data routes behind the group's
 * request context.
 *
 * Each base gets a router of its own. A router runs its middleware only when one of its own
 * routes matches, so the request context of `/:organization` never runs for a path that only
 * `/{group}/:organization` serves.
 */
export function groupRoutes(group: RouteGroup, services: Services): GatehouseRoutes {
  const under = (base: string) => new Router<GatehouseState>({ prefix: `${services.config.basePath}${base}` }).use(bindRouteGroup(group));
  const routers = groupRouteSets(group).map((placed) => mountRoutes(under(placed.base), placed, services, group));

  // Data routes take any segment as a model, so under `/:organization` the path `/tenant/acme/posts`
  // would read as model `acme` of organization `tenant`: bases that open with a literal go first.
  const data = groupDataRoutes(group, services);
  const literalFirst = (base: string) => (base.startsWith('/:') ? 1 : 0);
  const bases = [...dataBases(group)].sort((a, b) => literalFirst(a) - literalFirst(b));
  if (data) for (const base of bases) routers.push(under(base).use(...dataChain(group, services).before()).use(data.routes()));

  return chain(routers.map((router) => router.routes()));
}
