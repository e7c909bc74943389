import Router from '@koa/router';
import Koa from 'koa';
import { authenticateIfPresent } from './auth/authenticate.js';
import { jsonBody, requireJsonType } from './http/body-parser.js';
import { cors } from './http/cors.js';
import { methodOverride } from './http/method-override.js';
import { multipartBody } from './http/multipart-body.js';
import { errorHandler } from './http/error-handler.js';
import { notFound } from './http/not-found.js';
import { rejectNul } from './http/reject-nul.js';
import { requestId } from './http/request-id.js';
import { requestLogger } from './http/request-logger.js';
import { requireHost } from './http/require-host.js';
import type { GatehouseState } from './http/state.js';
import { acceptInvitation } from './invitations/accept-invitation.js';
import { openApi } from './openapi/openapi-route.js';
import { reservedSlugCheck } from './organizations/reserved-slug-check.js';
import { groupRoutes } from './route-groups/group-router.js';
import { hostRouting } from './route-groups/host-routing.js';
import { health } from './service/health.js';
import { publicKey } from './service/public-key.js';
import type { Services } from './services.js';

/** The whole request pipeline, outermost first. */
export function createApp(services: Services): Koa<GatehouseState> {
  const app = new Koa<GatehouseState>({ proxy: services.config.trustProxy > 0, maxIpsCount: services.config.trustProxy });

  // Routes outside every route group: same on every host, any session may call them.
  const service = new Router<GatehouseState>({ prefix: services.config.basePath })
    .get('/health', health(services))
    .get('/.well-known/paseto-public-key', publicKey(services))
    .post('/invitations/accept', authenticateIfPresent(services), acceptInvitation(services));
  if (services.config.models) service.get('/openapi.json', openApi(services, services.config.models));

  app.use(requestId());
  app.use(requestLogger(services.logger));
  app.use(errorHandler(services.logger));
  app.use(requireHost());
  app.use(cors(services.config.cors));
  app.use(requireJsonType());
  app.use(jsonBody(services.config.bodyLimit));
  app.use(multipartBody(services.config.bodyLimit));
  app.use(rejectNul());
  app.use(methodOverride());
  app.use(service.routes());
  app.use(reservedSlugCheck(services));
  app.use(hostRouting(services.config.routeGroups, (group) => groupRoutes(group, services)));
  app.use(notFound());
  return app;
}
