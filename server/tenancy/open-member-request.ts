import { isSessionOfRequestGroup, sessionOfAnotherGroup, tokenClaims } from '../auth/authenticate.js';
import { withOpenedRequest } from '../db/open-request.js';
import { NotGroupMemberError } from '../errors/not-group-member-error.js';
import { OrganizationNotFoundError } from '../errors/organization-not-found-error.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { slugPattern } from '../models/fields.js';
import { required, type GatehouseMiddleware } from '../http/state.js';
import type { Services } from '../services.js';
import { organizationSlug } from './organization-slug.js';

/**
 * A signed-in member's request, opened in one round trip: the tenant transaction's opening also
 * checks the session, the route group membership, the organization and the membership in it
 * (`db/open-request.ts`), and the rest of the request runs in that transaction. Every fact comes
 * from the database on every request, so a logout or a removed membership counts at once.
 *
 * The facts are turned into statuses here, in the documented order: authentication (401), route
 * group membership (403), organization (404, also for a non-member).
 */
export function openMemberRequest(services: Services): GatehouseMiddleware {
  return async (ctx, next) => {
    const group = required(ctx, 'routeGroup');
    const claims = await tokenClaims(ctx, services);
    if (!claims) throw new UnauthenticatedError();
    const ofGroup = isSessionOfRequestGroup(ctx, claims);
    const slug = group.tenancy === 'none' ? null : organizationSlug(ctx, group);
    const opening = {
      sessionId: claims.sessionId,
      userId: claims.userId,
      claimedRouteGroup: claims.routeGroup,
      openContext: ofGroup,
      routeGroup: group.name,
      organizationSlug: slug !== null && slugPattern.test(slug) ? slug : null,
    };
    try {
      await withOpenedRequest(services.db, opening, async (trx, opened) => {
        if (!opened.session) throw new UnauthenticatedError();
        if (!ofGroup) throw sessionOfAnotherGroup(services, claims);
        ctx.state.auth = { user: { id: claims.userId, name: opened.session.userName, email: opened.session.userEmail }, sessionId: claims.sessionId };
        if (services.config.membershipEnforcement && !opened.groupMember) throw new NotGroupMemberError();
        if (group.tenancy !== 'none') {
          if (!opened.organization || !opened.membership) throw new OrganizationNotFoundError();
          const { membership } = opened;
          ctx.state.organization = opened.organization;
          ctx.state.membership = {
            roleId: membership.role_id,
            roleSlug: membership.role_slug,
            rolePermissions: membership.role_permissions,
            granted: membership.granted_permissions,
            denied: membership.denied_permissions,
          };
        }
        ctx.state.trx = trx;
        await next();
      });
    } finally {
      delete ctx.state.trx;
    }
  };
}
