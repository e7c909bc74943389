import { createInvitation as insertInvitation, findPendingInvitationForEmail, setInvitationStatus } from '../db/repositories/invitations.js';
import { isMemberByEmail } from '../db/repositories/memberships.js';
import { findRolePermissions, listOrganizationRoles } from '../db/repositories/roles.js';
import { ValidationError } from '../errors/validation-error.js';
import type { GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';
import { assertMayGrant } from './assert-may-grant.js';
import { createInvitationSchema } from './invitation-schemas.js';
import { mailInvitation, newInvitationToken, throttleSend } from './send-invitation.js';
import { invitationStatus, serializeInvitation } from './serialize-invitation.js';

const alreadyPending = () => ValidationError.field('email', 'An invitation is already pending for this email address.');

/** Invitable groups: those where a member belongs to an organization and can sign in. */
function isInvitableGroup(services: Services, name: string): boolean {
  return services.config.routeGroups.some((group) => group.name === name && group.auth && group.tenancy !== 'none');
}

export function createInvitation(services: Services): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const input = validate(createInvitationSchema, ctx.request.body);
    const trx = ctx.state.trx;
    await throttleSend(services, ctx, input.email);
    const organization = ctx.state.organization;
    const routeGroup = input.route_group ?? ctx.state.routeGroup.name;
    if (!isInvitableGroup(services, routeGroup)) throw ValidationError.field('route_group', 'The selected route group is invalid.');
    const roles = await listOrganizationRoles(trx, organization.id);
    if (!roles.some((role) => role.id === input.role_id)) throw ValidationError.field('role_id', 'The selected role is invalid.');
    assertMayGrant(ctx, (await findRolePermissions(trx, organization.id, input.role_id))?.permissions ?? []);
    if (await isMemberByEmail(trx, organization.id, input.email, routeGroup)) {
      throw ValidationError.field('email', 'This user is already a member of the organization.');
    }

    // One pending invitation per email: a live one blocks, an expired one is replaced.
    const pending = await findPendingInvitationForEmail(trx, organization.id, input.email);
    if (pending && invitationStatus(pending) === 'pending') throw alreadyPending();
    if (pending) await setInvitationStatus(trx, pending.id, 'cancelled');

    const { token, tokenHash, expiresAt } = newInvitationToken(services);
    const invitation = await insertInvitation(trx, {
      organizationId: organization.id,
      email: input.email,
      roleId: input.role_id,
      routeGroup,
      tokenHash,
      invitedBy: ctx.state.auth.user.id,
      expiresAt,
    });
    if (!invitation) throw alreadyPending();
    await mailInvitation(services, ctx, invitation, token, organization);
    ctx.status = 201;
    ctx.body = serializeInvitation(invitation);
  };
}
