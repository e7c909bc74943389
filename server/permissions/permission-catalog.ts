import { STANDARD_ACTIONS } from '@gatehouse/engine/wire';
import type { GatehouseMiddleware, GroupState } from '../http/state.js';

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
export function permissionCatalog(): GatehouseMiddleware<GroupState> {
  return async (ctx) => {
    const served = ctx.state.routeGroup.models;
    const models: CatalogEntry[] = served.map((resource) => ({ resource, kind: 'model', actions: STANDARD_ACTIONS }));
    // A served model's standard actions already name its administration permissions (`roles.update`).
    const administration: CatalogEntry[] = Object.entries(ADMINISTRATION_PERMISSIONS)
      .filter(([resource]) => !served.includes(resource))
      .map(([resource, actions]) => ({ resource, kind: 'administration', actions }));
    ctx.body = { data: [...models, ...administration] };
  };
}
