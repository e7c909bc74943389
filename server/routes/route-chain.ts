import type { GatehouseMiddleware, GroupState } from '../http/state.js';
import { dataChain } from '../route-groups/request-chains.js';
import type { Services } from '../services.js';
import { loose } from '../db/transactions/tenant-transaction.js';
import { tenantStatements } from '../db/transactions/tenant-statements.js';
import { noteDecisionTarget } from './decision-target.js';
import { dataEndpoint, nestedEndpoint, routeReads } from './data-routes.js';
import type { PlacedDataRoute, PlacedNestedRoute, PlacedRoute } from './placed-route.js';

/**
 * The middleware a placed route runs, built once for where it is placed: a route set's own
 * handlers, or a data endpoint behind its group's request context.
 */
export function routeChain(placed: PlacedRoute | PlacedDataRoute | PlacedNestedRoute, services: Services): GatehouseMiddleware<GroupState>[] {
  if (placed.kind === 'route') return placed.route.handle(services, { group: placed.group, base: placed.base });
  const { observability } = services;
  if (placed.kind === 'nested') return dataChain(placed.group, services).before(nestedEndpoint(placed.models, observability));
  const reads = routeReads(placed.route, placed.models, services, loose(tenantStatements(services.db)));
  return [noteDecisionTarget(placed.route), ...dataChain(placed.group, services, reads).before(dataEndpoint(placed.route, placed.models, services, observability))];
}
