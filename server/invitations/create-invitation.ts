import { createInvitation as insertInvitation, pendingInvitationForEmail, setInvitationStatus } from '../db/repositories/invitations.js';
import { memberByEmail } from '../db/repositories/memberships.js';
import { roleInContext } from '../db/repositories/roles.js';
import { ValidationError } from '../errors/validation-error.js';
import type { GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';
import type { RequestReads } from '../tenancy/request-reads.js';
import { tenantStatements } from '../db/transactions/tenant-statements.js';
import { assertMayGrant } from './assert-may-grant.js';
import { createInvitationSchema } from './invitation-schemas.js';
import { mailInvitation, newInvitationToken, throttleSend } from './send-invitation.js';
import { invitationStatus, serializeInvitation } from './serialize-invitation.js';

const alreadyPending = () => ValidationError.field('email', 'An invitation is already pending for this email address.');

/** Invitable groups: those where a member belongs to an organization and can sign in. */
function isInvitableGroup(services: Services, name: string): boolean {
  return services.config.routeGroups.some((group) => group.name === name && group.auth && group.tenancy !== 'none');
}

/**
 * What `POST {t}/invitations` reads, sent with the request's opening: from its body (when valid),
 * the role it names, a membership and the pending invitation (locked) for its email, in the
 * tenant context's organization. The throttle then decides in a round trip of its own; the
 * insert follows, and its mail goes with COMMIT.
 */
export function invitationCreationReads(services: Services): RequestReads {
  const db = tenantStatements(services.db);
  return (ctx, { group }) => {
    const body = createInvitationSchema.safeParse(ctx.request.body);
    if (!body.success) return null;
    const { email, role_id: roleId, route_group: routeGroup = group.name } = body.data;
    return { statements: [roleInContext(db, { id: roleId }).compile(), memberByEmail(db, email, routeGroup).compile(), pendingInvitationForEmail(db, email).compile()], complete: false };
  };
}

export function createInvitation(services: Services): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const input = validate(createInvitationSchema, ctx.request.body);
    const trx = ctx.state.trx;
    await throttleSend(services, ctx, input.email);
    const organization = ctx.state.organization;
    const routeGroup = input.route_group ?? ctx.state.routeGroup.name;
    if (!isInvitableGroup(services, routeGroup)) throw ValidationError.field('route_group', 'The selected route group is invalid.');
    // A role is configured in the organization when it has permissions there.
    const role = await roleInContext(trx, { id: input.role_id }).executeTakeFirst();
    if (!role?.permissions) throw ValidationError.field('role_id', 'The selected role is invalid.');
    assertMayGrant(ctx, role.permissions);
    if (await memberByEmail(trx, input.email, routeGroup).executeTakeFirst()) {
      throw ValidationError.field('email', 'This user is already a member of the organization.');
    }

    // One pending invitation per email: a live one blocks, an expired one is replaced.
    const pending = await pendingInvitationForEmail(trx, input.email).executeTakeFirst();
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
