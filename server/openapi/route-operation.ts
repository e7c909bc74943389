import type { RouteGroup } from '../models/route-group.js';
import type { PlacedRoute } from '../routes/placed-route.js';
import type { JsonSchema, RouteDescription } from '../routes/route-definition.js';
import { pathParameters } from './path-parameters.js';
import { json, responses } from './responses.js';
import { bodySchema, queryParameters } from './zod-schemas.js';

export type Operation = JsonSchema;

const SECURITY = { bearer: undefined, optional: [{}, { bearer: [] }], none: [] } as const;

/**
 * Operation ids name the group, and `prefixed` for a group's second spelling of a base
 * (`/{group}/...`, the same operations with the group in the path); the service's own routes have
 * neither.
 */
export const operationId = (placed: { group: RouteGroup | null; prefixed: boolean }, id: string) =>
  placed.group ? `${placed.group.name}.${placed.prefixed ? 'prefixed.' : ''}${id}` : id;

/** A route of a route set, or of the service, at its templated path. */
export function routeOperation(placed: PlacedRoute<RouteDescription>, path: string): Operation {
  const { route } = placed;
  const security = SECURITY[route.access];
  return {
    operationId: operationId(placed, route.operationId),
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    parameters: [...pathParameters(path), ...queryParameters(route.query)],
    ...(route.body ? { requestBody: { required: true, content: json(bodySchema(route.body)) } } : {}),
    responses: responses(route.responses, placed.errors),
    ...(security ? { security } : {}),
  };
}
