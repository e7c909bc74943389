import type { MemberDetails } from '../db/repositories/members.js';
import { AccessDeniedError } from '../errors/access-denied-error.js';
import type { GatehouseContext, TenantMemberState } from '../http/state.js';
import { assertHolds } from '../permissions/assert-holds.js';
import type { Services } from '../services.js';
import { membershipKey } from './find-member.js';
import { assertOrganizationKeepsAnOwner, type MembershipFate } from './last-owner-rule.js';

/** The last-owner rule (assertOrganizationKeepsAnOwner) for the request's organization and route group. */
export function assertKeepsAnOwner(services: Services, ctx: GatehouseContext<TenantMemberState>, member: MemberDetails, fate: MembershipFate): Promise<void> {
  return assertOrganizationKeepsAnOwner(ctx.state.trx, membershipKey(ctx).routeGroup, services.config.ownerRole, member.id, fate);
}

/** Nobody changes their own role: a member cannot promote, nor by mistake demote, themselves. */
export function assertNotOwnRole(ctx: GatehouseContext<TenantMemberState>, member: MemberDetails): void {
  if (member.id === ctx.state.auth.user.id) throw new AccessDeniedError('You cannot change your own role.');
}

/** The entries of `list` that are not in `removed`. */
export const without = (list: readonly string[], removed: readonly string[]): string[] => list.filter((entry) => !removed.includes(entry));

/** The entries of `next` that `current` lacks. */
const added = (current: readonly string[], next: readonly string[]): string[] => without(next, current);

/**
 * Nobody changes a list by an entry they do not hold themself: adding a grant (or lifting a deny)
 * hands a permission out, removing a grant (or adding a deny) takes it from someone. Roles' and
 * members' lists alike; `after` undefined leaves the list as it is.
 */
export function assertHoldsChanges(ctx: GatehouseContext<TenantMemberState>, before: readonly string[], after: readonly string[] | undefined): void {
  if (after !== undefined) assertHolds(ctx, [...added(before, after), ...added(after, before)]);
}
