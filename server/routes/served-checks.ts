import type { ServedCheck } from '../data/check-action.js';
import { DATA_ROUTES } from './data-routes.js';
import type { RouteDefinition } from './route-definition.js';

/**
 * The data-route checks that routes of `routes` answer instead, found by method and path: a route
 * `GET /roles` stands where the data route `GET /:model` would serve model `roles`, so the check
 * `{model: 'roles', action: 'index'}` is decided as that route decides.
 */
export function servedChecks(routes: readonly RouteDefinition[]): ServedCheck[] {
  return routes.flatMap((route) => {
    const decide = route.servesCheck;
    if (decide === undefined) return [];
    const model = route.path.split('/')[1] ?? '';
    const data = DATA_ROUTES.find((candidate) => candidate.method === route.method && candidate.path.replace(':model', model) === route.path);
    if (data === undefined) throw new Error(`${route.operationId} serves no data route's check: ${route.method.toUpperCase()} ${route.path} is not one.`);
    return [{ model, action: data.operation, decide }];
  });
}
