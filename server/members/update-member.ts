import { roleInContext } from '../db/repositories/roles.js';
import { ValidationError } from '../errors/validation-error.js';
import type { GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { assertHolds } from '../permissions/assert-holds.js';
import { assertDeclaredConditions, declaredConditions } from '../permissions/declared-conditions.js';
import type { Services } from '../services.js';
import { changeMembership } from './change-membership.js';
import { findMember, membershipKey } from './find-member.js';
import { updateMemberSchema } from './member-schemas.js';
import { assertHoldsChanges, assertKeepsAnOwner, assertNotOwnRole } from './membership-rules.js';
import { serializeMember } from './serialize-member.js';

/**
 * `PATCH {t}/members/{id}`: the member's role and per-user lists. The caller must hold every
 * permission of the member's role (no one reworks a member above them), of a new role, and of
 * each entry added to or taken from either list. Takes effect on the member's next request.
 * What it reads travels with the request's opening (`member-reads.ts`); the change, its audit
 * row and COMMIT go together.
 */
export function updateMember(services: Services): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const member = await findMember(ctx, 'update');
    const input = validate(updateMemberSchema, ctx.request.body);
    assertDeclaredConditions(declaredConditions(services.config.models), { granted_permissions: input.granted_permissions, denied_permissions: input.denied_permissions });
    const trx = ctx.state.trx;
    const roleChanges = input.role_id !== undefined && input.role_id !== member.role_id;
    if (roleChanges) assertNotOwnRole(ctx, member);
    assertHolds(ctx, member.role_permissions ?? []);
    if (roleChanges && input.role_id !== undefined) {
      // A role is configured in the organization when it has permissions there.
      const role = await roleInContext(trx, { id: input.role_id }).executeTakeFirst();
      if (!role?.permissions) throw ValidationError.field('role_id', 'The selected role is invalid.');
      assertHolds(ctx, role.permissions);
    }
    assertHoldsChanges(ctx, member.granted_permissions, input.granted_permissions);
    assertHoldsChanges(ctx, member.denied_permissions, input.denied_permissions);
    await assertKeepsAnOwner(services, ctx, member, input);

    ctx.body = serializeMember(await changeMembership(trx, membershipKey(ctx), member, input, ctx.state.auth.user.id, { last: true }));
  };
}
