import { withTenant } from '../db/with-tenant.js';
import type { GatehouseMiddleware } from '../http/state.js';
import type { Services } from '../services.js';

/**
 * Runs the rest of the request in one transaction carrying the tenant context (organization and
 * user), so row-level security scopes every query below and a failure rolls all of it back.
 */
export function tenantTransaction(services: Services): GatehouseMiddleware {
  return async (ctx, next) => {
    const context = { organizationId: ctx.state.organization?.id ?? null, userId: ctx.state.auth?.user.id ?? null };
    try {
      await withTenant(services.db, context, async (trx) => {
        ctx.state.trx = trx;
        await next();
      });
    } finally {
      delete ctx.state.trx;
    }
  };
}
