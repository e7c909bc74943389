import { addMembership } from '../db/repositories/memberships.js';
import { setInvitationStatus } from '../db/repositories/invitations.js';
import { findOrganizationById, findOrganizationBySlug } from '../db/repositories/organizations.js';
import { createUser, findUserByEmail } from '../db/repositories/users.js';
import { takeTurn } from '../db/transactions/claim-turns.js';
import { OrganizationNotFoundError } from '../errors/organization-not-found-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { GatehouseContext, GatehouseMiddleware, GroupState } from '../http/state.js';
import type { RequestDeadline } from '../db/transactions/request-deadline.js';
import { validate } from '../http/validate.js';
import { claimInvitation, sameEmail } from '../invitations/claim-invitation.js';
import type { Services } from '../services.js';
import { registerSchema } from './auth-schemas.js';
import { hashPassword } from './password.js';
import { sessionResponse } from './session-response.js';
import { startSession } from './start-session.js';
import { keepWritePosition } from '../db/replicas/session-write-position.js';
import { throttledAttempt } from '../throttle/throttled-attempt.js';

/**
 * Checks in order: fields (422), throttle (429), invitation (404), email (422).
 * Registration redeems an invitation of this route group: the user, the membership and the
 * accepted invitation are written together, then a session starts as on login.
 */
export function register(services: Services, echoedGroup: string | null): GatehouseMiddleware<GroupState> {
  return async (ctx) => {
    const input = validate(registerSchema, ctx.request.body);
    const deadline = ctx.state.deadline;
    await throttledAttempt(services, services.db, 'register', { email: input.email, address: ctx.ip }, deadline);
    const group = ctx.state.routeGroup;
    const hostOrganization = await hostOrganizationId(services, ctx, deadline);
    const passwordHash = await hashPassword(input.password);
    const claim = { token: input.token, userId: null, routeGroup: group.name, organizationId: hostOrganization };
    const { user, organizationId } = await claimInvitation(services, claim, async (trx, invitation) => {
      if (!sameEmail(invitation.email, input.email)) throw ValidationError.field('email', 'The email does not match the invitation.');
      await takeTurn(trx, 'users.email');
      if (await findUserByEmail(trx, input.email)) throw ValidationError.field('email', 'The email has already been taken.');
      const created = await createUser(trx, { name: input.name, email: input.email, passwordHash });
      await addMembership(trx, { userId: created.id, organizationId: invitation.organization_id, roleId: invitation.role_id, routeGroup: invitation.route_group });
      await setInvitationStatus(trx, invitation.id, 'accepted');
      return { user: created, organizationId: invitation.organization_id };
    }, deadline);
    const organization = (await findOrganizationById(services.db, organizationId, deadline)) ?? null;
    const { token, sessionId } = await startSession(services, user.id, group.name, deadline);
    // The new member reads back the membership the invitation gave them.
    await keepWritePosition(services, sessionId, deadline);
    ctx.status = 201;
    ctx.body = sessionResponse({ token, user, organization, routeGroup: echoedGroup });
  };
}

/**
 * On a tenant host, the organization the invitation must be of: a session started there lands in
 * the host's organization only, as a login there does.
 */
async function hostOrganizationId(services: Services, ctx: GatehouseContext<GroupState>, deadline: RequestDeadline): Promise<number | undefined> {
  if (ctx.state.routeGroup.tenancy !== 'subdomain') return undefined;
  const organization = await findOrganizationBySlug(services.db, ctx.state.hostOrganization ?? '', deadline);
  if (!organization) throw new OrganizationNotFoundError();
  return organization.id;
}
