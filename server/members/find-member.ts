import { pathId } from '../models/path-id.js';
import { memberToChange, type MemberToChange, type MembershipKey } from '../db/repositories/members.js';
import { NotFoundError } from '../errors/not-found-error.js';
import type { GatehouseContext, TenantMemberState } from '../http/state.js';
import { assertCan } from '../permissions/authorize.js';

export function membershipKey(ctx: GatehouseContext<TenantMemberState>): MembershipKey {
  return { organizationId: ctx.state.organization.id, routeGroup: ctx.state.routeGroup.name };
}

/**
 * The member `:id` (a user id) of the request's organization and route group, with their role's
 * permissions, checked in the order permission (403), then record (404; a non-member is as
 * absent as a missing user): a caller without the permission cannot tell members from non-members.
 */
export async function findMember(ctx: GatehouseContext<TenantMemberState>, action: 'update' | 'destroy'): Promise<MemberToChange> {
  assertCan(ctx, action, 'memberships');
  const userId = pathId(ctx.params.id);
  const member = userId !== null ? await memberToChange(ctx.state.trx, ctx.state.routeGroup.name, userId).executeTakeFirst() : undefined;
  if (!member) throw new NotFoundError('Member not found.');
  return member;
}
