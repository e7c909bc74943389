import type Router from '@koa/router';
import type { DataState } from '../http/state.js';
import type { ModelRegistry } from '../models/model-registry.js';
import type { RouteGroup } from '../models/route-group.js';
import type { DataRoute } from './data-routes.js';
import type { HttpMethod, RouteDefinition, RouteDescription } from './route-definition.js';

/** Where a placed route answers: `{basePath}{base}...` of its group (none for the service routes). */
interface Place {
  readonly group: RouteGroup | null;
  /** Below the base path: `''`, `/admin`, `/:organization`, `/tenant/:organization`. */
  readonly base: string;
  /** A group's second spelling of a base (`/{group}/...`), which serves the same operations. */
  readonly prefixed: boolean;
  /** The full Koa path template, base path included: `/api/:organization/:model/:id`. */
  readonly path: string;
}

interface PlacedOperation extends Place {
  readonly method: HttpMethod;
  /** Statuses the route's whole chain may answer with the `{message}` body, the pipeline's aside. */
  readonly errors: readonly number[];
}

/** A described route of a route set, and its own handlers. */
export interface PlacedRoute<R extends RouteDescription = RouteDefinition> extends PlacedOperation {
  readonly kind: 'route';
  readonly route: R;
}

/** A generic data endpoint: `:model` in its path names any model the group serves. */
export interface PlacedDataRoute extends PlacedOperation {
  readonly kind: 'data';
  readonly group: RouteGroup;
  readonly route: DataRoute;
  readonly models: ModelRegistry;
}

/** `POST {dataBase}/nested`: writes across the group's models. */
export interface PlacedNestedRoute extends PlacedOperation {
  readonly kind: 'nested';
  readonly group: RouteGroup;
  readonly models: ModelRegistry;
}

/** An application's own data router (`dataRoutes`), mounted at a data base; it matches its own paths. */
export interface PlacedRouter extends Place {
  readonly kind: 'router';
  readonly group: RouteGroup;
  // A router typed by the looser `GatehouseState` reads the same state, with every field optional.
  readonly router: Router<DataState>;
}

export type Placed = PlacedRoute | PlacedDataRoute | PlacedNestedRoute | PlacedRouter;

/** A body can be too large (413) or of a type the pipeline does not read (415). */
export const BODY_ERRORS = [413, 415] as const;

/**
 * A route group's request counts against a fair share of the database pool (429 past it) and
 * takes a pooled connection (503 when the database cannot be reached or the request runs past
 * its deadline): every route in a group may answer both, with `Retry-After`.
 */
export const POOL_ERRORS = [429, 503] as const;

/** Every status once, ascending. */
export const statuses = (...lists: readonly (readonly number[])[]) => [...new Set(lists.flat())].sort((a, b) => a - b);

/** A route set at one place: `{basePath}{base}{prefix}{route.path}`. */
export function placeRoutes<R extends RouteDescription>(
  routes: readonly R[],
  at: { group: RouteGroup | null; base: string; prefix: string; prefixed: boolean },
  basePath: string,
): PlacedRoute<R>[] {
  return routes.map((route) => ({
    kind: 'route',
    group: at.group,
    base: at.base,
    prefixed: at.prefixed,
    path: `${basePath}${at.base}${at.prefix}${route.path}`,
    method: route.method,
    errors: statuses(route.errors, route.body ? BODY_ERRORS : [], at.group ? POOL_ERRORS : []),
    route,
  }));
}
