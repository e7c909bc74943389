import { createSecretToken } from '../auth/secret-token.js';
import type { InvitationRecord } from '../db/repositories/invitations.js';
import { queueMessage, type MailMessage } from '../db/repositories/mail-queue.js';
import type { CurrentOrganization, GatehouseContext, TenantMemberState } from '../http/state.js';
import { invitationMail } from '../mail/invitation-mail.js';
import type { Services } from '../services.js';
import { throttledAttempt } from '../throttle/throttled-attempt.js';

/** A fresh token and expiry; only the hash is stored, the token itself goes out by mail. */
export function newInvitationToken(services: Services): { token: string; tokenHash: string; expiresAt: Date } {
  const { token, hash } = createSecretToken();
  return { token, tokenHash: hash, expiresAt: new Date(Date.now() + services.config.invitationTtlSeconds * 1000) };
}

/**
 * Counts a send to `email` on two windows: the invitee's in this organization, so one tenant
 * cannot use up another's invitations of the same address, and the inviter's own (in place of
 * the client's address), so nobody floods mailboxes through many invitations. It runs in the
 * request's transaction, so only sends that are committed (and mailed) count; a refused one
 * rolls its count back too.
 */
export function throttleSend(services: Services, ctx: GatehouseContext<TenantMemberState>, email: string): Promise<void> {
  const organization = ctx.state.organization.id;
  const inviter = ctx.state.auth.user.id;
  return throttledAttempt(services, ctx.state.trx, 'invitationSend', { email: `${organization}/${email}`, address: `user ${inviter}` });
}

/**
 * The invitation's mail, for the request's transaction to queue: it goes out if, and only if, the
 * invitation is committed. The mail worker is nudged once the answer is out (after the commit).
 */
export function invitationMessage(services: Services, ctx: GatehouseContext<TenantMemberState>, invitation: Pick<InvitationRecord, 'email' | 'expires_at'>, token: string, organization: CurrentOrganization): MailMessage {
  ctx.res.once('close', () => services.mail.kick());
  return invitationMail(invitation.email, token, organization.name, services.publicUrl(), invitation.expires_at);
}

/** Queues the invitation's mail (invitationMessage) in the request's transaction, as its last statement: with COMMIT. */
export async function mailInvitation(services: Services, ctx: GatehouseContext<TenantMemberState>, invitation: InvitationRecord, token: string, organization: CurrentOrganization): Promise<void> {
  await queueMessage(ctx.state.trx, invitationMessage(services, ctx, invitation, token, organization), { last: true });
}
