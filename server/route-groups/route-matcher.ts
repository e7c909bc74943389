import { METHODS } from 'node:http';
import Router from '@koa/router';
import type { Next } from 'koa';
import { pathToRegexp } from 'path-to-regexp';
import { chain } from '../http/chain.js';
import type { DataState, GatehouseContext, GatehouseMiddleware } from '../http/state.js';
import type { RouteGroup } from '../models/route-group.js';
import type { Placed } from '../routes/placed-route.js';
import { routeChain } from '../routes/route-chain.js';
import type { Services } from '../services.js';
import { dataChain } from './request-chains.js';
import { bindRouteGroup } from './bind-route-group.js';

/** A placed route, ready to answer: how it matches a request and its chain, composed once. */
export interface CompiledRoute {
  readonly group: RouteGroup | null;
  /** The methods it answers; null when its own router decides (an application's data router). */
  readonly methods: ReadonlySet<string> | null;
  /** How many segments every path it matches has; null when that can vary. */
  readonly segments: number | null;
  match(path: string, method: string): RouteMatch | null;
  readonly run: GatehouseMiddleware;
}

interface RouteMatch {
  params: Record<string, string>;
  /** What the metrics report as the route (`/api/:organization/:model/:id`), never the raw path. */
  template: string | RegExp;
}

/** The organization a domain group's host names; null for the main host. */
export type HostOrganization = (group: RouteGroup) => string | null;

const NO_HOST: HostOrganization = () => null;

const decode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

// The options @koa/router gives path-to-regexp, so paths match as they always have: any case, an
// optional trailing slash, the whole path.
const PATH_OPTIONS = { sensitive: false, trailing: true, end: true };

// A segment that is a literal or a whole `:parameter` matches exactly one non-empty segment.
const PLAIN_SEGMENT = /^(?::[A-Za-z_$][\w$]*|[\w.~-]+)$/;

/** The segments of a template made of plain segments only (`/api/:organization/:model`: 3), else null. */
function segmentsOf(template: string): number | null {
  const segments = template.split('/').slice(1);
  return template.startsWith('/') && segments.every((segment) => PLAIN_SEGMENT.test(segment)) ? segments.length : null;
}

const SLASH = '/'.charCodeAt(0);

/** The segments of a request's path, an optional trailing slash aside: what segmentsOf counts. */
function pathSegments(path: string): number {
  let slashes = 0;
  const end = path.endsWith('/') ? path.length - 1 : path.length;
  for (let index = 0; index < end; index += 1) if (path.charCodeAt(index) === SLASH) slashes += 1;
  return slashes;
}

function compilePath(placed: Exclude<Placed, { kind: 'router' }>, methods: ReadonlySet<string>): CompiledRoute['match'] {
  const template = placed.path;
  const { regexp, keys } = pathToRegexp(placed.path, PATH_OPTIONS);
  return (path, method) => {
    if (!methods.has(method)) return null;
    const captures = regexp.exec(path);
    if (!captures) return null;
    const params: Record<string, string> = {};
    keys.forEach((key, index) => {
      const value = captures[index + 1];
      if (value) params[key.name] = decode(value);
    });
    return { params, template };
  };
}

// A group's chain reads its group, which the matcher binds before the chain runs; a service
// route's chain reads no more than every request carries.
const asRun = (run: GatehouseMiddleware<never>) => run as GatehouseMiddleware;

/** Compiles a placed route once: its matcher and its middleware chain. */
export function compileRoute(placed: Placed, services: Services): CompiledRoute {
  if (placed.kind === 'router') {
    // An application's router matches its own paths; its request context runs only when one does.
    const mounted = new Router<DataState>({ prefix: placed.path }).use(placed.router.routes());
    return {
      group: placed.group,
      methods: null,
      segments: null,
      match: (path, method) => {
        const layer = mounted.match(path, method).pathAndMethod.find((candidate) => candidate.methods.length > 0);
        return layer ? { params: layer.params(path, layer.captures(path)), template: layer.path } : null;
      },
      run: asRun(chain([...dataChain(placed.group, services).before(), mounted.routes() as GatehouseMiddleware<DataState>])),
    };
  }
  const methods = new Set([placed.method.toUpperCase(), ...(placed.method === 'get' ? ['HEAD'] : [])]);
  return { group: placed.group, methods, segments: segmentsOf(placed.path), match: compilePath(placed, methods), run: asRun(chain(routeChain(placed, services))) };
}

/** Answers a request as the request's method and path pick it, with the organization its host names. */
export type RouteDispatch = (ctx: GatehouseContext, next: Next, hostOrganization?: HostOrganization) => Promise<unknown>;

/**
 * One matcher over a list of compiled routes: the first route whose method and path match runs
 * its chain, and a chain that passes the request on hands it to the next route that matches, then
 * to what follows the matcher.
 */
export function routeMatcher(routes: readonly CompiledRoute[]): RouteDispatch {
  // The candidates of each method and number of segments, in table order, found once: a request
  // tries only the routes that can match it. Node's parser admits only the methods it knows.
  const counts = [...new Set(routes.map((route) => route.segments).filter((segments) => segments !== null))];
  const candidates = new Map(
    METHODS.map((method) => {
      const answering = routes.filter((route) => route.methods === null || route.methods.has(method));
      const bySegments = new Map(counts.map((count) => [count, answering.filter((route) => route.segments === null || route.segments === count)]));
      return [method, { bySegments, others: answering.filter((route) => route.segments === null) }];
    }),
  );
  const candidatesOf = (method: string, path: string) => {
    const ofMethod = candidates.get(method);
    if (!ofMethod) return routes;
    return ofMethod.bySegments.get(pathSegments(path)) ?? ofMethod.others;
  };
  return (ctx, next, hostOrganization = NO_HOST) => {
    const { path, method } = ctx;
    return dispatch({ routes: candidatesOf(method, path), path, method, ctx, next, hostOrganization }, 0);
  };
}

interface Dispatch {
  routes: readonly CompiledRoute[];
  /** As the request arrived at the matcher. */
  path: string;
  method: string;
  ctx: GatehouseContext;
  next: Next;
  hostOrganization: HostOrganization;
}

/** Runs the first route from `start` on that matches the request, or what follows the matcher. */
function dispatch(request: Dispatch, start: number): Promise<unknown> {
  const { routes, path, method, ctx, hostOrganization } = request;
  for (let index = start; index < routes.length; index += 1) {
    const route = routes[index]!;
    const match = route.match(path, method);
    if (!match) continue;
    if (route.group) bindRouteGroup(ctx, route.group, hostOrganization(route.group));
    ctx.params = { ...ctx.params, ...match.params };
    (ctx as { _matchedRoute?: unknown })._matchedRoute = match.template;
    return Promise.resolve(route.run(ctx, () => dispatch(request, index + 1)));
  }
  return request.next();
}
