import { withTenant, type TenantTransaction } from '../db/transactions/tenant-transaction.js';
import type { CurrentOrganization, RequestState, Stage } from '../http/state.js';
import type { Services } from '../services.js';
import { clientAddress } from './client-address.js';

/**
 * Runs the rest of a guest's request (a group without auth) in one transaction carrying the
 * tenant context (the organization, no user), so row-level security scopes every query below and
 * a failure rolls all of it back.
 */
export function openTenantTransaction(services: Services): Stage<RequestState & { organization?: CurrentOrganization }, { trx: TenantTransaction }> {
  return async (ctx, next) => {
    const context = { organizationId: ctx.state.organization?.id ?? null, userId: null };
    try {
      // Within its client address's share of the pool (fair-shares.ts), in the place of the user
      // it does not have, and not the organization's: anyone may send these, so counting them
      // against the organization would let one anonymous client leave its members 429s.
      const holders = { organization: null, user: null, address: clientAddress(ctx.ip) };
      await services.fairShares.hold(holders, ctx.state.deadline.caller, () => withTenant(services.db, context, (trx) => next({ trx }), ctx.state.deadline));
    } finally {
      // The transaction has ended: nothing after this stage may reach it through the state.
      Reflect.deleteProperty(ctx.state, 'trx');
    }
  };
}
