import { setInvitationStatus } from '../db/repositories/invitations.js';
import type { GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import { findPendingInvitation } from './find-invitation.js';
import { serializeInvitation } from './serialize-invitation.js';

/**
 * The row stays, marked cancelled, so the list can still show it; its token stops working. The
 * invitation is read with the request's opening, the change goes with COMMIT.
 */
export function cancelInvitation(): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const invitation = await findPendingInvitation(ctx, 'destroy', 'cancelled');
    const cancelled = await setInvitationStatus(ctx.state.trx, invitation.id, 'cancelled', { last: true });
    ctx.body = { message: 'Invitation cancelled.', invitation: serializeInvitation(cancelled) };
  };
}
