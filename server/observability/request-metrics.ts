import type { Histogram } from 'prom-client';
import type { Middleware } from 'koa';
import type { GatehouseState } from '../http/state.js';
import type { GatehouseMetrics } from './metrics.js';

// Any other token a client sends as a method is one label value, not one each.
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/** The route template a router matched (`/api/:organization/:model/:id`), never the raw path. */
export function routeTemplate(ctx: object): string {
  const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  return typeof route === 'string' ? route : 'unmatched';
}

/**
 * Times every request into `http_request_duration_seconds`. Each label combination's child is
 * made once and kept, so a request only builds the key that finds it.
 */
export function requestMetrics(metrics: GatehouseMetrics): Middleware<GatehouseState> {
  const seen = new Map<string, Histogram.Internal<string>>();
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const method = METHODS.has(ctx.method) ? ctx.method : 'OTHER';
      const statusClass = STATUS_CLASSES[Math.floor(ctx.status / 100) - 1] ?? 'other';
      const route = routeTemplate(ctx);
      const group = ctx.state.routeGroup?.name ?? 'none';
      const key = `${method} ${statusClass} ${group} ${route}`;
      let child = seen.get(key);
      if (!child) seen.set(key, (child = metrics.requestDuration.labels(method, route, statusClass, group)));
      child.observe(Number(process.hrtime.bigint() - started) / 1e9);
    }
  };
}
