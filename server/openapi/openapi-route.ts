import type { GatehouseMiddleware } from '../http/state.js';
import type { Services } from '../services.js';
import { buildOpenApi } from './build-openapi.js';

/** `GET {basePath}/openapi.json`: the whole HTTP surface, built once. */
export function openApi(services: Services): GatehouseMiddleware {
  let document: Record<string, unknown> | undefined;
  return async (ctx) => {
    const { basePath, routeGroups, models } = services.config;
    ctx.body = document ??= buildOpenApi({ title: 'Gatehouse API', version: '1.0.0', basePath, groups: routeGroups, models });
  };
}
