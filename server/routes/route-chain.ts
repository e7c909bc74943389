import type { GatehouseMiddleware, GroupState } from '../http/state.js';
import { dataChain } from '../route-groups/request-context.js';
import type { Services } from '../services.js';
import { dataEndpoint, nestedEndpoint } from './data-routes.js';
import type { PlacedDataRoute, PlacedNestedRoute, PlacedRoute } from './placed-route.js';

/**
 * The middleware a placed route runs, built once for where it is placed: a route set's own
 * handlers, or a data endpoint behind its group's request context.
 */
export function routeChain(placed: PlacedRoute | PlacedDataRoute | PlacedNestedRoute, services: Services): GatehouseMiddleware<GroupState>[] {
  if (placed.kind === 'route') return placed.route.handle(services, { group: placed.group, base: placed.base });
  const { cursors, observability } = services;
  return dataChain(placed.group, services).before(placed.kind === 'data' ? dataEndpoint(placed.route, placed.models, cursors, observability) : nestedEndpoint(placed.models, observability));
}
