import type { GatehouseContext } from '../http/state.js';

/**
 * The template of the route that served the request (`/api/:organization/:model/:id`), as the
 * route matcher set it. Its parameters stay names, so no id, slug or token of the path reaches a log.
 */
export function routeTemplate(ctx: GatehouseContext): string {
  const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  return route === undefined ? '(unmatched)' : String(route);
}
