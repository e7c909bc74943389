import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { Middleware } from 'koa';
import type { GatehouseState } from '../http/state.js';
import { routeTemplate } from './request-metrics.js';

/**
 * The request's server span, continuing a caller's trace (`traceparent`), with everything the
 * request does beneath it. Named and labelled by the route template, never the raw path, whose
 * segments are values (an organization, a record id); no header, query or body is recorded.
 */
export function requestSpan(tracer: Tracer): Middleware<GatehouseState> {
  return async (ctx, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, ctx.headers);
    const span = tracer.startSpan(ctx.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method } }, parent);
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      const route = routeTemplate(ctx);
      span.updateName(`${ctx.method} ${route}`);
      span.setAttributes({
        'http.route': route,
        'http.response.status_code': ctx.status,
        'gatehouse.request_id': ctx.state.requestId,
        'gatehouse.route_group': ctx.state.routeGroup?.name ?? 'none',
      });
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}

/** The trace the current request belongs to, for its log line; undefined when not tracing. */
export const activeTraceId = (): string | undefined => trace.getSpan(context.active())?.spanContext().traceId;
