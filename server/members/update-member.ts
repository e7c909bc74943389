import { appendAuditLog } from '../db/repositories/audit-logs.js';
import { findMemberDetails, updateMembership } from '../db/repositories/members.js';
import { findRolePermissions, listOrganizationRoles } from '../db/repositories/roles.js';
import { changedValues } from '../audit/record-audit.js';
import { ValidationError } from '../http/errors/validation-error.js';
import { required, type GatehouseMiddleware } from '../http/state.js';
import { validate } from '../http/validate.js';
import { assertHolds } from '../permissions/assert-holds.js';
import type { Services } from '../services.js';
import { findMember, membershipKey } from './find-member.js';
import { updateMemberSchema } from './member-schemas.js';
import { added, assertKeepsAnOwner, assertNotOwnRole } from './membership-rules.js';
import { membershipFacts, serializeMember } from './serialize-member.js';

/**
 * `PATCH {t}/members/{id}`: the member's role and per-user lists. The caller must hold every
 * permission of the member's role (no one reworks a member above them), of a new role, of each
 * newly granted permission and of each lifted deny. Takes effect on the member's next request.
 */
export function updateMember(services: Services): GatehouseMiddleware {
  return async (ctx) => {
    const member = await findMember(ctx, 'update');
    const input = validate(updateMemberSchema, ctx.request.body);
    const trx = required(ctx, 'trx');
    const key = membershipKey(ctx);
    const roleChanges = input.role_id !== undefined && input.role_id !== member.role_id;
    if (roleChanges) assertNotOwnRole(ctx, member);
    assertHolds(ctx, (await findRolePermissions(trx, key.organizationId, member.role_id))?.permissions ?? []);
    if (roleChanges && input.role_id !== undefined) {
      if (!(await listOrganizationRoles(trx, key.organizationId)).some((role) => role.id === input.role_id)) {
        throw ValidationError.field('role_id', 'The selected role is invalid.');
      }
      assertHolds(ctx, (await findRolePermissions(trx, key.organizationId, input.role_id))?.permissions ?? []);
      await assertKeepsAnOwner(services, ctx, member);
    }
    assertHolds(ctx, added(member.granted_permissions, input.granted_permissions));
    assertHolds(ctx, input.denied_permissions ? member.denied_permissions.filter((denied) => !input.denied_permissions?.includes(denied)) : []);

    await updateMembership(trx, key, member.id, input);
    const updated = (await findMemberDetails(trx, key, member.id)) ?? member;
    const { oldValues, newValues } = changedValues(membershipFacts(member), membershipFacts(updated));
    if (Object.keys(newValues).length > 0) {
      await appendAuditLog(trx, { organizationId: key.organizationId, model: 'memberships', recordId: member.id, action: 'updated', oldValues, newValues, userId: required(ctx, 'auth').user.id });
    }
    ctx.body = serializeMember(updated);
  };
}
