import Koa from 'koa';
import { cors } from './http/cors.js';
import { errorHandler } from './http/error-handler.js';
import { requestDeadline } from './http/request-deadline.js';
import { logSendingErrors } from './http/sending-errors.js';
import { notFound } from './http/not-found.js';
import { requestId } from './http/request-id.js';
import { requestInput } from './http/request-input.js';
import { requestLogger } from './http/request-logger.js';
import { recordDecisions } from './decisions/record-decisions.js';
import { requireHost } from './http/require-host.js';
import type { GatehouseState } from './http/state.js';
import { requestMetrics } from './observability/request-metrics.js';
import { requestSpan } from './observability/request-span.js';
import { apiReferenceAssets } from './pages/api-reference.js';
import { webApp } from './pages/web-app.js';
import { reservedSlugCheck } from './organizations/reserved-slug-check.js';
import { UNGROUPED_ROUTES } from './openapi/document-routes.js';
import { hostRouting } from './route-groups/host-routing.js';
import { anySession } from './route-groups/request-chains.js';
import { compileRoute, routeMatcher } from './route-groups/route-matcher.js';
import { placeUngrouped, routeTable } from './routes/route-table.js';
import type { Services } from './services.js';

/** The whole request pipeline, outermost first. */
export function createApp(services: Services): Koa<GatehouseState> {
  const app = new Koa<GatehouseState>({ proxy: services.config.trustProxy > 0, maxIpsCount: services.config.trustProxy });
  logSendingErrors(app, services.logger);

  const { basePath, routeGroups, models, dataRoutes } = services.config;
  const service = routeMatcher(placeUngrouped(UNGROUPED_ROUTES, basePath).map((placed) => compileRoute(placed, services)));

  const { metrics, tracer } = services.observability;
  app.use(requestId());
  if (metrics) app.use(requestMetrics(metrics));
  if (tracer) app.use(requestSpan(tracer));
  app.use(requestLogger(services.logger, services.observability));
  app.use(recordDecisions(services.decisions));
  app.use(errorHandler(services.logger, { reasons: services.config.explain.responses, metrics }));
  app.use(requestDeadline(services.config.requestTimeoutMs));
  app.use(requireHost());
  app.use(cors(services.config.cors));
  app.use(requestInput(services.config.bodyLimit));
  app.use(service);
  app.use(apiReferenceAssets(services.config.basePath));
  if (services.config.webRoot) app.use(webApp(services.config.webRoot, services.config.basePath));
  app.use(reservedSlugCheck(services, anySession(services)));
  app.use(hostRouting(routeTable({ basePath, groups: routeGroups, models, dataRoutes }), services));
  app.use(notFound());
  return app;
}
