import { abilityPermits } from '@gatehouse/engine';
import { lockRoleHolders, type MemberDetails, type MembershipChanges, type RoleHolder } from '../db/repositories/members.js';
import { findRolePermissions } from '../db/repositories/roles.js';
import { AccessDeniedError } from '../errors/access-denied-error.js';
import type { GatehouseContext, TenantMemberState } from '../http/state.js';
import { assertHolds } from '../permissions/assert-holds.js';
import { compiledPermissions } from '../permissions/compiled-permissions.js';
import type { Services } from '../services.js';
import { membershipKey } from './find-member.js';

/** What happens to a membership: its changes, or `removed`. */
export type MembershipFate = MembershipChanges | 'removed';

/** The holder after the fate, or null when it no longer holds the role. */
function afterFate(holder: RoleHolder, fate: MembershipFate): RoleHolder | null {
  if (fate === 'removed' || (fate.role_id !== undefined && fate.role_id !== holder.role_id)) return null;
  return { ...holder, granted_permissions: fate.granted_permissions ?? holder.granted_permissions, denied_permissions: fate.denied_permissions ?? holder.denied_permissions };
}

/**
 * An organization always keeps an owner who holds every permission of the owner role: its last
 * one can be neither demoted, removed nor denied any of them. The owners' memberships are locked
 * first, so two owners acting on each other at the same moment are decided one after the other.
 */
export async function assertKeepsAnOwner(services: Services, ctx: GatehouseContext<TenantMemberState>, member: MemberDetails, fate: MembershipFate): Promise<void> {
  const { ownerRole } = services.config;
  const trx = ctx.state.trx;
  const key = membershipKey(ctx);
  const holders = await lockRoleHolders(trx, key.organizationId, ownerRole);
  if (holders.length === 0) return;
  const role = (await findRolePermissions(trx, key.organizationId, holders[0]!.role_id))?.permissions ?? [];
  const isFull = (holder: RoleHolder | null) =>
    holder !== null && role.every((permission) => abilityPermits(compiledPermissions({ role, granted: holder.granted_permissions, denied: holder.denied_permissions }).ability, permission));
  const isMember = (holder: RoleHolder) => holder.user_id === member.id && holder.route_group === key.routeGroup;
  const changed = holders.find(isMember);
  if (!changed || !isFull(changed)) return;
  if (holders.some((holder) => (isMember(holder) ? isFull(afterFate(holder, fate)) : isFull(holder)))) return;
  throw new AccessDeniedError(`The last ${ownerRole} of the organization cannot be demoted, removed or denied a permission of the ${ownerRole} role.`);
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
