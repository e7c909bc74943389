import type Router from '@koa/router';
import type { DataRoutesFactory } from '../config/server-config.js';
import type { DataState } from '../http/state.js';
import type { ModelRegistry } from '../models/model-registry.js';
import { dataBases, type RouteGroup } from '../models/route-group.js';
import { BASE_NESTED_ROUTE, DATA_ERRORS, DATA_ROUTES, INVALID_BODY } from './data-routes.js';
import { BODY_ERRORS, placeRoutes, POOL_ERRORS, statuses, type Placed, type PlacedRoute } from './placed-route.js';
import type { RouteDescription } from './route-definition.js';
import { groupRouteSets } from './route-sets.js';

export interface RouteTableSource {
  basePath: string;
  /** In configuration order. */
  groups: readonly RouteGroup[];
  /** The registered models, served by the generic data routes; none when the application routes its own data. */
  models: ModelRegistry | undefined;
  /** The application's own data routes, instead of `models`. */
  dataRoutes?: DataRoutesFactory | undefined;
}

/** One route group's routes, in the order they are tried: the first that matches answers. */
export interface GroupPlacement {
  group: RouteGroup;
  routes: readonly Placed[];
}

/**
 * Where every route of every route group answers, in which order, with which statuses: the one
 * placement that the server's matchers and the OpenAPI document both read.
 */
export interface RouteTable {
  /** Configuration order. */
  groups: readonly GroupPlacement[];
  /** The groups of the main host (no domain), in the order they are tried. */
  mainHost: readonly GroupPlacement[];
  /** The domain groups: a host that one of them matches is served by those alone. */
  domains: readonly GroupPlacement[];
}

/** The routes outside every route group: `{basePath}{route.path}`, the same on every host. */
export const placeUngrouped = <R extends RouteDescription>(routes: readonly R[], basePath: string): PlacedRoute<R>[] =>
  placeRoutes(routes, { group: null, base: '', prefix: '', prefixed: false }, basePath);

/**
 * A data request's request context answers 401 (no session), 403 (not a member of the group) and
 * 404 (no such organization) in groups with auth; without auth only an organization can be missing.
 */
const contextErrors = (group: RouteGroup): readonly number[] => (group.auth ? [401, 403, 404] : [404]);

// Data routes take any segment as a model, so under `/:organization` the path `/tenant/acme/posts`
// would read as model `acme` of organization `tenant`: bases that open with a literal go first.
const literalFirst = (base: string) => (base.startsWith('/:') ? 1 : 0);

function placeData(group: RouteGroup, source: RouteTableSource): Placed[] {
  const bases = dataBases(group)
    .map((base, index) => ({ base, prefixed: index > 0 }))
    .sort((a, b) => literalFirst(a.base) - literalFirst(b.base));
  const { models, dataRoutes, basePath } = source;
  if (!models) {
    const router = dataRoutes?.(group) as Router<DataState> | undefined;
    return router ? bases.map(({ base, prefixed }) => ({ kind: 'router', group, base, prefixed, path: `${basePath}${base}`, router })) : [];
  }
  if (group.models.length === 0) return [];
  const errors = (body: boolean) => statuses(contextErrors(group), DATA_ERRORS, POOL_ERRORS, body ? [...BODY_ERRORS, INVALID_BODY] : []);
  return bases.flatMap(({ base, prefixed }): Placed[] => [
    { kind: 'nested', group, base, prefixed, path: `${basePath}${base}${BASE_NESTED_ROUTE.path}`, method: BASE_NESTED_ROUTE.method, errors: errors(true), models },
    ...DATA_ROUTES.map((route): Placed => ({ kind: 'data', group, base, prefixed, path: `${basePath}${base}${route.path}`, method: route.method, errors: errors(route.body !== undefined), route, models })),
  ]);
}

/** The group's route sets (auth, organizations, tenant-only operations), then its data routes. */
function placeGroup(group: RouteGroup, source: RouteTableSource): GroupPlacement {
  const sets = groupRouteSets(group).flatMap(({ routes, ...at }) => placeRoutes(routes, { group, ...at }, source.basePath));
  return { group, routes: [...sets, ...placeData(group, source)] };
}

// Groups whose prefix opens with the organization segment catch any first segment, so they go
// after the groups with a fixed first segment, the default group last of all.
const catchAll = (group: RouteGroup) => (group.prefix?.startsWith('{organization}') ? 1 : 0);

export function routeTable(source: RouteTableSource): RouteTable {
  const groups = source.groups.map((group) => placeGroup(group, source));
  return {
    groups,
    mainHost: groups
      .filter(({ group }) => group.domain === null)
      .sort((a, b) => catchAll(a.group) - catchAll(b.group) || Number(a.group.isDefault) - Number(b.group.isDefault)),
    domains: groups.filter(({ group }) => group.domain !== null),
  };
}
