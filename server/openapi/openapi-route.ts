import type { GatehouseMiddleware } from '../http/state.js';
import type { ModelRegistry } from '../models/model-registry.js';
import { tenantRouter } from '../organizations/tenant-router.js';
import { dataBases, tenantBases } from '../route-groups/route-group.js';
import type { Services } from '../services.js';
import { buildOpenApi, type OpenApiGroup } from './build-openapi.js';

const INFO = { title: 'Gatehouse data API', version: '1.0.0' };

const templated = (base: string) => base.replace(':organization', '{organization}');

/**
 * Every data base of every group that serves models. Where a base also carries the tenant-only
 * operations (path tenancy), those answer first, so `GET {t}/organizations` is theirs, not the
 * generic index.
 */
export function openApiGroups(services: Services, registry: ModelRegistry): OpenApiGroup[] {
  const tenantOperations = tenantRouter(services);
  const answeredByTenantOperations = (method: string, path: string) => tenantOperations.match(path, method.toUpperCase()).route;
  return services.config.routeGroups.flatMap((group) => {
    const models = group.models.map((slug) => registry.get(slug));
    const tenantAt = new Set(group.auth ? tenantBases(group) : []);
    return models.length === 0
      ? []
      : dataBases(group).map((base) => ({
          base: `${services.config.basePath}${templated(base)}`,
          models,
          host: group.domain,
          answeredElsewhere: tenantAt.has(base) ? answeredByTenantOperations : undefined,
        }));
  });
}

/** `GET {basePath}/openapi.json`: the data endpoints of the registered models, built once. */
export function openApi(services: Services, registry: ModelRegistry): GatehouseMiddleware {
  let document: Record<string, unknown> | undefined;
  return async (ctx) => {
    ctx.body = document ??= buildOpenApi(INFO, openApiGroups(services, registry), services.config.basePath);
  };
}
