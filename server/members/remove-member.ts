import type { GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import { assertHolds } from '../permissions/assert-holds.js';
import type { Services } from '../services.js';
import { endMembership } from './change-membership.js';
import { findMember, membershipKey } from './find-member.js';
import { assertKeepsAnOwner } from './membership-rules.js';

/**
 * `DELETE {t}/members/{id}`: ends the membership (the user stays); never the last owner's. What
 * it reads travels with the request's opening (`member-reads.ts`); the removal, its audit row and
 * COMMIT go together.
 */
export function removeMember(services: Services): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const member = await findMember(ctx, 'destroy');
    assertHolds(ctx, member.role_permissions ?? []);
    await assertKeepsAnOwner(services, ctx, member, 'removed');
    await endMembership(ctx.state.trx, membershipKey(ctx), member, ctx.state.auth.user.id, { last: true });
    ctx.body = { message: 'Member removed.' };
  };
}
