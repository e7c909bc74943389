import { findRolePermissions } from '../db/repositories/roles.js';
import type { GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import { assertHolds } from '../permissions/assert-holds.js';
import type { Services } from '../services.js';
import { endMembership } from './change-membership.js';
import { findMember, membershipKey } from './find-member.js';
import { assertKeepsAnOwner } from './membership-rules.js';

/** `DELETE {t}/members/{id}`: ends the membership (the user stays); never the last owner's. */
export function removeMember(services: Services): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const member = await findMember(ctx, 'destroy');
    const trx = ctx.state.trx;
    const key = membershipKey(ctx);
    assertHolds(ctx, (await findRolePermissions(trx, key.organizationId, member.role_id))?.permissions ?? []);
    await assertKeepsAnOwner(services, ctx, member, 'removed');
    await endMembership(trx, key, member, ctx.state.auth.user.id);
    ctx.body = { message: 'Member removed.' };
  };
}
