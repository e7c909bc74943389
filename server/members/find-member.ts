import { isStoredInteger } from '../models/integer-range.js';
import { findMemberDetails, type MemberDetails, type MembershipKey } from '../db/repositories/members.js';
import { NotFoundError } from '../errors/not-found-error.js';
import type { GatehouseContext, TenantMemberState } from '../http/state.js';
import { assertCan } from '../permissions/authorize.js';

const ID = /^[1-9][0-9]{0,9}$/;

export function membershipKey(ctx: GatehouseContext<TenantMemberState>): MembershipKey {
  return { organizationId: ctx.state.organization.id, routeGroup: ctx.state.routeGroup.name };
}

/**
 * The member `:id` (a user id) of the request's organization and route group, checked in the
 * order permission (403), then record (404; a non-member is as absent as a missing user): a
 * caller without the permission cannot tell members from non-members.
 */
export async function findMember(ctx: GatehouseContext<TenantMemberState>, action: 'update' | 'destroy'): Promise<MemberDetails> {
  assertCan(ctx, action, 'memberships');
  const raw = ctx.params.id ?? '';
  const userId = ID.test(raw) ? Number(raw) : NaN;
  const member = isStoredInteger(userId) ? await findMemberDetails(ctx.state.trx, membershipKey(ctx), userId) : undefined;
  if (!member) throw new NotFoundError('Member not found.');
  return member;
}
