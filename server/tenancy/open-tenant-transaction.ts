import { withTenant, type TenantTransaction } from '../db/transactions/tenant-transaction.js';
import type { Authentication, CurrentOrganization, RequestState, Stage } from '../http/state.js';
import type { Services } from '../services.js';

/**
 * Runs the rest of the request in one transaction carrying the tenant context (organization and
 * user), so row-level security scopes every query below and a failure rolls all of it back.
 */
export function openTenantTransaction(services: Services): Stage<RequestState & { auth?: Authentication; organization?: CurrentOrganization }, { trx: TenantTransaction }> {
  return async (ctx, next) => {
    const context = { organizationId: ctx.state.organization?.id ?? null, userId: ctx.state.auth?.user.id ?? null };
    try {
      // Within the organization's (and the user's) share of the pool: see fair-shares.ts.
      const holders = { organization: ctx.state.organization?.slug ?? null, user: ctx.state.auth ? String(ctx.state.auth.user.id) : null };
      await services.fairShares.hold(holders, ctx.state.deadline.caller, () => withTenant(services.db, context, (trx) => next({ trx }), ctx.state.deadline));
    } finally {
      // The transaction has ended: nothing after this stage may reach it through the state.
      Reflect.deleteProperty(ctx.state, 'trx');
    }
  };
}
