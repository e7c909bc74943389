import { STANDARD_ACTIONS } from '@gatehouse/engine/wire';
import { required, type GatehouseMiddleware } from '../http/state.js';

/** The administration operations and the permission each needs, as `{resource: actions}`. */
export const ADMINISTRATION_PERMISSIONS: Readonly<Record<string, readonly string[]>> = {
  memberships: ['index', 'update', 'destroy'],
  roles: ['show', 'update'],
  invitations: ['index', 'store', 'update', 'destroy'],
  audit: ['index'],
  decisions: ['index', 'explain'],
};

export interface CatalogEntry {
  resource: string;
  kind: 'model' | 'administration';
  actions: readonly string[];
}

/**
 * `GET {t}/permission-catalog`: every permission a role or member can be given in this group,
 * so a picker offers the served models' standard actions and the administration operations.
 * Wildcards (`{resource}.*`, `*`) are implied by the entries.
 */
export function permissionCatalog(): GatehouseMiddleware {
  return async (ctx) => {
    const models: CatalogEntry[] = required(ctx, 'routeGroup').models.map((resource) => ({ resource, kind: 'model', actions: STANDARD_ACTIONS }));
    const administration: CatalogEntry[] = Object.entries(ADMINISTRATION_PERMISSIONS).map(([resource, actions]) => ({ resource, kind: 'administration', actions }));
    ctx.body = { data: [...models, ...administration] };
  };
}
