import type { InvitationRecord, InvitationStatus } from '../db/repositories/invitations.js';

/** A pending invitation past its expiry reads as `expired`; the token never leaves the mail. */
export function invitationStatus(invitation: InvitationRecord, now = new Date()): InvitationStatus {
  return invitation.status === 'pending' && invitation.expires_at <= now ? 'expired' : invitation.status;
}

export function serializeInvitation(invitation: InvitationRecord) {
  return {
    id: invitation.id,
    organization_id: invitation.organization_id,
    email: invitation.email,
    role_id: invitation.role_id,
    route_group: invitation.route_group,
    status: invitationStatus(invitation),
    invited_by: invitation.invited_by,
    expires_at: invitation.expires_at,
    accepted_at: invitation.accepted_at,
    created_at: invitation.created_at,
    updated_at: invitation.updated_at,
  };
}
