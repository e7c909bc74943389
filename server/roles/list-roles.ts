import { listOrganizationRoles } from '../db/repositories/roles.js';
import type { GatehouseMiddleware, TenantMemberState } from '../http/state.js';

/** The roles configured in the organization; any member may read them (to show or pick one). */
export function listRoles(): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    ctx.body = { data: await listOrganizationRoles(ctx.state.trx, ctx.state.organization.id) };
  };
}
