import { findMembership } from '../db/repositories/memberships.js';
import { OrganizationNotFoundError } from '../http/errors/organization-not-found-error.js';
import { required, type GatehouseMiddleware } from '../http/state.js';

/** A signed-in caller sees an organization only through a membership in the request's group. */
export function requireOrganizationMembership(): GatehouseMiddleware {
  return async (ctx, next) => {
    const organization = ctx.state.organization;
    if (organization) {
      const membership = await findMembership(required(ctx, 'trx'), organization.id, required(ctx, 'auth').user.id, required(ctx, 'routeGroup').name);
      if (!membership) throw new OrganizationNotFoundError();
      ctx.state.membership = {
        roleId: membership.role_id,
        roleSlug: membership.role_slug,
        rolePermissions: membership.role_permissions,
        granted: membership.granted_permissions,
        denied: membership.denied_permissions,
      };
    }
    await next();
  };
}
