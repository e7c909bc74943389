import type { Middleware } from 'koa';
import type { GatehouseState } from '../http/state.js';
import type { GatehouseMetrics } from './metrics.js';
import type { HistogramSeries } from './prebound-histogram.js';

// Any other token a client sends as a method is one label value, not one each.
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'OTHER'];
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx', 'other'];

const methodIndex = (method: string) => {
  const index = METHODS.indexOf(method);
  return index < 0 ? METHODS.length - 1 : index;
};

const statusClassIndex = (status: number) => {
  const index = Math.floor(status / 100) - 1;
  return index >= 0 && index < STATUS_CLASSES.length - 1 ? index : STATUS_CLASSES.length - 1;
};

/** The route template a router matched (`/api/:organization/:model/:id`), never the raw path. */
export function routeTemplate(ctx: object): string {
  const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  return typeof route === 'string' ? route : 'unmatched';
}

/**
 * Times every request into `http_request_duration_seconds`. Each label combination's series is
 * bound once, on its first request, and found again by the route template and the route group
 * (strings the router and the config hold, whose hashes are kept) and an index by method and
 * status class: a request builds no key and hashes no label.
 */
export function requestMetrics(metrics: GatehouseMetrics): Middleware<GatehouseState> {
  const bound = new Map<string, Map<string, HistogramSeries[]>>();
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const route = routeTemplate(ctx);
      const group = ctx.state.routeGroup?.name ?? 'none';
      let byGroup = bound.get(route);
      if (!byGroup) bound.set(route, (byGroup = new Map()));
      let byMethodAndStatus = byGroup.get(group);
      if (!byMethodAndStatus) byGroup.set(group, (byMethodAndStatus = []));
      const method = methodIndex(ctx.method);
      const statusClass = statusClassIndex(ctx.status);
      const index = method * STATUS_CLASSES.length + statusClass;
      const series = (byMethodAndStatus[index] ??= metrics.requestDuration.series({
        method: METHODS[method]!,
        route,
        status_class: STATUS_CLASSES[statusClass]!,
        route_group: group,
      }));
      series.observe(Number(process.hrtime.bigint() - started) / 1e9);
    }
  };
}
