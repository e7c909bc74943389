import { hasGroupMembership } from '../db/repositories/memberships.js';
import { NotGroupMemberError } from '../errors/not-group-member-error.js';
import { required, type GatehouseMiddleware } from '../http/state.js';
import type { Services } from '../services.js';
import type { RouteGroup } from '../models/route-group.js';

/** With enforcement on, a user needs a membership row for the group (403 otherwise). */
export async function assertGroupMember(services: Services, userId: number, group: RouteGroup): Promise<void> {
  if (services.config.membershipEnforcement && !(await hasGroupMembership(services.db, userId, group.name))) {
    throw new NotGroupMemberError();
  }
}

export function requireGroupMembership(services: Services): GatehouseMiddleware {
  return async (ctx, next) => {
    await assertGroupMember(services, required(ctx, 'auth').user.id, required(ctx, 'routeGroup'));
    await next();
  };
}
