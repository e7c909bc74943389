import { appendAuditLog } from '../db/repositories/audit-logs.js';
import { removeMembership } from '../db/repositories/members.js';
import { findRolePermissions } from '../db/repositories/roles.js';
import type { GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import { assertHolds } from '../permissions/assert-holds.js';
import type { Services } from '../services.js';
import { findMember, membershipKey } from './find-member.js';
import { assertKeepsAnOwner } from './membership-rules.js';
import { membershipFacts } from './serialize-member.js';

/** `DELETE {t}/members/{id}`: ends the membership (the user stays); never the last owner's. */
export function removeMember(services: Services): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const member = await findMember(ctx, 'destroy');
    const trx = ctx.state.trx;
    const key = membershipKey(ctx);
    assertHolds(ctx, (await findRolePermissions(trx, key.organizationId, member.role_id))?.permissions ?? []);
    await assertKeepsAnOwner(services, ctx, member, 'removed');
    await removeMembership(trx, key, member.id);
    await appendAuditLog(trx, {
      organizationId: key.organizationId,
      model: 'memberships',
      recordId: member.id,
      action: 'deleted',
      oldValues: membershipFacts(member),
      newValues: null,
      userId: ctx.state.auth.user.id,
    });
    ctx.body = { message: 'Member removed.' };
  };
}
