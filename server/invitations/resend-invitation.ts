import { renewInvitation } from '../db/repositories/invitations.js';
import { ValidationError } from '../errors/validation-error.js';
import type { GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import type { Services } from '../services.js';
import { assertMayGrant } from './assert-may-grant.js';
import { findPendingInvitation } from './find-invitation.js';
import { mailInvitation, newInvitationToken, throttleSend } from './send-invitation.js';
import { invitationStatus, serializeInvitation } from './serialize-invitation.js';

/**
 * A new token and expiry, mailed again; the old link stops working. Resending invites again, so
 * the caller must be one who could have sent it (the may-grant rule); an expired invitation stays
 * expired and a new one must be created.
 */
export function resendInvitation(services: Services): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const invitation = await findPendingInvitation(ctx, 'update', 'resent');
    if (invitationStatus(invitation) === 'expired') throw ValidationError.field('status', 'This invitation has expired: create a new one.');
    await assertMayGrant(ctx, invitation.role_id);
    await throttleSend(services, ctx, invitation.email);
    const { token, tokenHash, expiresAt } = newInvitationToken(services);
    const renewed = await renewInvitation(ctx.state.trx, invitation.id, { tokenHash, expiresAt });
    await mailInvitation(services, ctx, renewed, token, ctx.state.organization);
    ctx.body = serializeInvitation(renewed);
  };
}
