import { createSecretToken } from '../auth/secret-token.js';
import type { InvitationRecord } from '../db/repositories/invitations.js';
import { queueMessage } from '../db/repositories/mail-queue.js';
import { required, type CurrentOrganization, type GatehouseContext } from '../http/state.js';
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
export function throttleSend(services: Services, ctx: GatehouseContext, email: string): Promise<void> {
  const organization = required(ctx, 'organization').id;
  const inviter = required(ctx, 'auth').user.id;
  return throttledAttempt(services, required(ctx, 'trx'), 'invitationSend', { email: `${organization}/${email}`, address: `user ${inviter}` });
}

/**
 * Queues the invitation's mail in the request's transaction: it goes out if, and only if, the
 * invitation is committed. The mail worker is nudged once the answer is out (after the commit).
 */
export async function mailInvitation(services: Services, ctx: GatehouseContext, invitation: InvitationRecord, token: string, organization: CurrentOrganization): Promise<void> {
  await queueMessage(required(ctx, 'trx'), invitationMail(invitation.email, token, organization.name, services.publicUrl(), invitation.expires_at));
  ctx.res.once('close', () => services.mail.kick());
}
