import { addMembership } from '../db/repositories/memberships.js';
import { setInvitationStatus } from '../db/repositories/invitations.js';
import { findOrganizationById } from '../db/repositories/organizations.js';
import { findUserByEmail } from '../db/repositories/users.js';
import { AccessDeniedError } from '../errors/access-denied-error.js';
import type { GatehouseMiddleware } from '../http/state.js';
import { validate } from '../http/validate.js';
import { serializeOrganization } from '../organizations/serialize-organization.js';
import type { Services } from '../services.js';
import { claimInvitation, sameEmail } from './claim-invitation.js';
import { acceptInvitationSchema } from './invitation-schemas.js';
import { serializeInvitation } from './serialize-invitation.js';

/**
 * The signed-in invitee joins the organization in the invitation's route group; no token is
 * issued. A guest learns whether to register (no account for the invited email yet) or to sign
 * in first.
 */
export function acceptInvitation(services: Services): GatehouseMiddleware {
  return async (ctx) => {
    const { token } = validate(acceptInvitationSchema, ctx.request.body);
    const auth = ctx.state.auth;
    if (!auth) {
      const invitation = await claimInvitation(services, { token, userId: null }, async (_trx, invitation) => invitation, ctx.state.deadline);
      const organization = await findOrganizationById(services.db, invitation.organization_id, ctx.state.deadline);
      const registered = (await findUserByEmail(services.db, invitation.email, ctx.state.deadline)) !== undefined;
      ctx.body = { requires_registration: !registered, email: invitation.email, organization: organization && serializeOrganization(organization) };
      return;
    }
    const accepted = await claimInvitation(services, { token, userId: auth.user.id }, async (trx, invitation) => {
      if (!sameEmail(invitation.email, auth.user.email)) throw new AccessDeniedError('This invitation was sent to another email address.');
      await addMembership(trx, { userId: auth.user.id, organizationId: invitation.organization_id, roleId: invitation.role_id, routeGroup: invitation.route_group });
      return setInvitationStatus(trx, invitation.id, 'accepted');
    }, ctx.state.deadline);
    const organization = await findOrganizationById(services.db, accepted.organization_id, ctx.state.deadline);
    ctx.body = { message: 'Invitation accepted.', invitation: serializeInvitation(accepted), organization: organization && serializeOrganization(organization) };
  };
}
