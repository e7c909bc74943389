import { withTenant, type TenantTransaction } from '../db/transactions/tenant-transaction.js';
import type { CurrentOrganization, RequestState, Stage } from '../http/state.js';
import type { Services } from '../services.js';

/**
 * Runs the rest of a guest's request (a group without auth) in one transaction carrying the
 * tenant context (the organization, no user), so row-level security scopes every query below and
 * a failure rolls all of it back. The guest's share of the pool is held already (`hold-address-share.ts`).
 */
export function openTenantTransaction(services: Services): Stage<RequestState & { organization?: CurrentOrganization }, { trx: TenantTransaction }> {
  return async (ctx, next) => {
    const context = { organizationId: ctx.state.organization?.id ?? null, userId: null };
    try {
      await withTenant(services.db, context, (trx) => next({ trx }), ctx.state.deadline);
    } finally {
      // The transaction has ended: nothing after this stage may reach it through the state.
      Reflect.deleteProperty(ctx.state, 'trx');
    }
  };
}
