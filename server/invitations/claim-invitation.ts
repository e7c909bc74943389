import { hashSecretToken } from '../auth/secret-token.js';
import { findInvitationByTokenHash, type InvitationRecord } from '../db/repositories/invitations.js';
import { withTenant, type TenantTransaction } from '../db/transactions/tenant-transaction.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { Services } from '../services.js';
import type { RequestDeadline } from '../db/transactions/request-deadline.js';
import { invitationStatus } from './serialize-invitation.js';

export interface InvitationClaim {
  token: string;
  userId: number | null;
  /** Register through a group's auth routes accepts only that group's invitations. */
  routeGroup?: string;
  /** Register on a tenant host accepts only the host organization's invitations. */
  organizationId?: number;
}

/**
 * Runs `use` on the pending invitation the token names, inside its organization's tenant
 * context with the invitation row locked. The token is the authority: its hash alone makes the
 * row visible long enough to learn the organization.
 */
export async function claimInvitation<T>(
  services: Services,
  claim: InvitationClaim,
  use: (trx: TenantTransaction, invitation: InvitationRecord) => Promise<T>,
  deadline?: RequestDeadline,
): Promise<T> {
  const invitationTokenHash = hashSecretToken(claim.token);
  const found = await withTenant(services.db, { organizationId: null, userId: claim.userId, invitationTokenHash }, (trx) =>
    findInvitationByTokenHash(trx, invitationTokenHash),
    deadline,
  );
  const visible =
    found &&
    found.status !== 'cancelled' &&
    (claim.routeGroup === undefined || found.route_group === claim.routeGroup) &&
    (claim.organizationId === undefined || found.organization_id === claim.organizationId);
  if (!visible) throw new NotFoundError('Invitation not found.');
  return withTenant(services.db, { organizationId: found.organization_id, userId: claim.userId, invitationTokenHash }, async (trx) => {
    const invitation = await findInvitationByTokenHash(trx, invitationTokenHash);
    const status = invitation ? invitationStatus(invitation) : 'cancelled';
    if (!invitation || status === 'cancelled') throw new NotFoundError('Invitation not found.');
    if (status === 'accepted') throw ValidationError.field('token', 'This invitation has already been accepted.');
    if (status === 'expired') throw ValidationError.field('token', 'This invitation has expired.');
    return use(trx, invitation);
  }, deadline);
}

export const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
