import type { GatehouseMiddleware } from '../http/state.js';
import type { Services } from '../services.js';
import { SERVER_VERSION } from '../service/server-version.js';
import { buildOpenApi } from './build-openapi.js';

/** `GET {basePath}/openapi.json`: the whole HTTP surface, built once. */
export function openApi(services: Services): GatehouseMiddleware {
  let document: Record<string, unknown> | undefined;
  return async (ctx) => {
    const { basePath, routeGroups, models } = services.config;
    ctx.body = document ??= buildOpenApi({ title: 'Gatehouse API', version: SERVER_VERSION, basePath, groups: routeGroups, models });
  };
}
