import { listOrganizationRoles } from '../db/repositories/roles.js';
import { required, type GatehouseMiddleware } from '../http/state.js';

/** The roles configured in the organization; any member may read them (to show or pick one). */
export function listRoles(): GatehouseMiddleware {
  return async (ctx) => {
    ctx.body = { data: await listOrganizationRoles(required(ctx, 'trx'), required(ctx, 'organization').id) };
  };
}
