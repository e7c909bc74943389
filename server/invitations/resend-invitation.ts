import { invitationRolePermissions, renewInvitation, type InvitationRecord } from '../db/repositories/invitations.js';
import { runWrite } from '../db/transactions/read-ahead.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import type { Services } from '../services.js';
import { assertMayGrant } from './assert-may-grant.js';
import { findPendingInvitation } from './find-invitation.js';
import { invitationMessage, newInvitationToken, throttleSend } from './send-invitation.js';
import { invitationStatus, serializeInvitation } from './serialize-invitation.js';

/**
 * A new token and expiry, mailed again; the old link stops working. Resending invites again, so
 * the caller must be one who could have sent it (the may-grant rule); an expired invitation stays
 * expired and a new one must be created. The invitation and its role's permissions are read with
 * the request's opening; the throttle decides in a round trip of its own, before anything is
 * written; the renewal, its mail and COMMIT go together.
 */
export function resendInvitation(services: Services): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const invitation = await findPendingInvitation(ctx, 'update', 'resent');
    if (invitationStatus(invitation) === 'expired') throw ValidationError.field('status', 'This invitation has expired: create a new one.');
    const trx = ctx.state.trx;
    assertMayGrant(ctx, (await invitationRolePermissions(trx, invitation.id).executeTakeFirst())?.permissions ?? []);
    await throttleSend(services, ctx, invitation.email);
    const { token, tokenHash, expiresAt } = newInvitationToken(services);
    const mail = invitationMessage(services, ctx, { email: invitation.email, expires_at: expiresAt }, token, ctx.state.organization);
    const [renewed] = await runWrite<InvitationRecord>(trx, renewInvitation(trx, invitation.id, { tokenHash, expiresAt }, mail), { last: true });
    // Read pending in this transaction a moment ago: gone only with its organization.
    if (!renewed) throw new NotFoundError('Invitation not found.');
    ctx.body = serializeInvitation(renewed);
  };
}
