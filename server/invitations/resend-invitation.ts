import { renewInvitation } from '../db/repositories/invitations.js';
import { required, type GatehouseMiddleware } from '../http/state.js';
import type { Services } from '../services.js';
import { findPendingInvitation } from './find-invitation.js';
import { mailInvitation, newInvitationToken, throttleSend } from './send-invitation.js';
import { serializeInvitation } from './serialize-invitation.js';

/** A new token and expiry, mailed again; the old link stops working. Expired ones can be renewed. */
export function resendInvitation(services: Services): GatehouseMiddleware {
  return async (ctx) => {
    const invitation = await findPendingInvitation(ctx, 'update', 'resent');
    await throttleSend(services, ctx, invitation.email);
    const { token, tokenHash, expiresAt } = newInvitationToken(services);
    const renewed = await renewInvitation(required(ctx, 'trx'), invitation.id, { tokenHash, expiresAt });
    await mailInvitation(services, ctx, renewed, token, required(ctx, 'organization'));
    ctx.body = serializeInvitation(renewed);
  };
}
