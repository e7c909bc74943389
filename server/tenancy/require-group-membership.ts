import { NotGroupMemberError } from '../errors/not-group-member-error.js';
import type { SignedInState, Stage } from '../http/state.js';
import type { Services } from '../services.js';

/** With enforcement on, a signed-in caller must be a member of the route group (403 otherwise). */
export function requireGroupMembership(services: Services): Stage<SignedInState, object> {
  return async (ctx, next) => {
    if (services.config.membershipEnforcement && !ctx.state.groupMember) throw new NotGroupMemberError();
    await next({});
  };
}
