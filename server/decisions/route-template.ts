import type { GatehouseContext } from '../http/state.js';

interface MatchedLayer {
  readonly path: string | RegExp;
  readonly methods: readonly string[];
}

/**
 * The template of the route that served the request (`/api/:organization/:model/:id`): the last
 * matched layer that is a route rather than a router's middleware. Its parameters stay names, so
 * no id, slug or token of the path reaches a log.
 */
export function routeTemplate(ctx: GatehouseContext): string {
  const matched = (ctx as { matched?: readonly MatchedLayer[] }).matched ?? [];
  const route = matched.findLast((layer) => layer.methods.length > 0);
  return route === undefined ? '(unmatched)' : String(route.path);
}
