import { STANDARD_ACTIONS } from '@gatehouse/engine/wire';
import type { DataState, GatehouseMiddleware } from '../http/state.js';
import type { Services } from '../services.js';
import { ADMINISTRATION_PERMISSIONS } from './administration-permissions.js';
import { declaredConditions } from './declared-conditions.js';
import { serviceResources } from './service-resources.js';

export interface CatalogEntry {
  resource: string;
  kind: 'model' | 'administration' | 'service';
  actions: readonly string[];
  /** The service a `service` resource belongs to. */
  service?: string;
  /** A model's record conditions (`posts.update:own`), in declaration order; none for other kinds. */
  conditions?: readonly string[];
}

/**
 * `GET {t}/permission-catalog`: every permission a role or member can be given in this group,
 * so a picker offers the served models' standard actions, the administration operations and the
 * resources of other services. Wildcards (`{resource}.*`, `*`) are implied by the entries.
 */
export function permissionCatalog(services: Services): GatehouseMiddleware<DataState> {
  return async (ctx) => {
    const served = ctx.state.routeGroup.models;
    const conditions = declaredConditions(services.config.models);
    const models: CatalogEntry[] = served.map((resource) => ({ resource, kind: 'model', actions: STANDARD_ACTIONS, conditions: conditions.names(resource) }));
    // A served model's standard actions already name its administration permissions (`roles.update`).
    const administration: CatalogEntry[] = Object.entries(ADMINISTRATION_PERMISSIONS)
      .filter(([resource]) => !served.includes(resource))
      .map(([resource, actions]) => ({ resource, kind: 'administration', actions }));
    const others: CatalogEntry[] = (await serviceResources(ctx.state.trx, services.config.services)).map(({ resource, service, actions }) => ({ resource, kind: 'service', service, actions }));
    ctx.body = { data: [...models, ...administration, ...others] };
  };
}
