import { abilityPermits } from '@gatehouse/engine';
import type { CompiledQuery } from 'kysely';
import { lockRoleHolders, type MembershipChanges, type RoleHolder } from '../db/repositories/members.js';
import { roleInContext } from '../db/repositories/roles.js';
import type { TenantTransaction } from '../db/transactions/tenant-transaction.js';
import { AccessDeniedError } from '../errors/access-denied-error.js';
import { compiledPermissions } from '../permissions/compiled-permissions.js';

/** What happens to a membership: its changes, or `removed`. */
export type MembershipFate = MembershipChanges | 'removed';

/** The holder after the fate, or null when it no longer holds the role. */
function afterFate(holder: RoleHolder, fate: MembershipFate): RoleHolder | null {
  if (fate === 'removed' || (fate.role_id !== undefined && fate.role_id !== holder.role_id)) return null;
  return { ...holder, granted_permissions: fate.granted_permissions ?? holder.granted_permissions, denied_permissions: fate.denied_permissions ?? holder.denied_permissions };
}

/**
 * What the rule reads, in the order it reads them: the owners' memberships, locked, then the
 * owner role's permissions, read once the lock is held. A request sends both with its opening.
 */
function ruleReads(trx: TenantTransaction, ownerRole: string) {
  return { holders: lockRoleHolders(trx, ownerRole), role: roleInContext(trx, { slug: ownerRole }) };
}

/** The rule's statements, for a request to send with its opening (`tenancy/request-reads.ts`). */
export function lastOwnerReads(trx: TenantTransaction, ownerRole: string): CompiledQuery[] {
  const { holders, role } = ruleReads(trx, ownerRole);
  return [holders.compile(), role.compile()];
}

/**
 * An organization always keeps an owner who holds every permission of the owner role: its last
 * one can be neither demoted, removed nor denied any of them, over HTTP or from the CLI alike.
 * The owners' memberships are locked first, so two owners acting on each other at the same moment
 * are decided one after the other. `userId`: the member whose fate it is, in `routeGroup`, in the
 * tenant context's organization.
 */
export async function assertOrganizationKeepsAnOwner(trx: TenantTransaction, routeGroup: string, ownerRole: string, userId: number, fate: MembershipFate): Promise<void> {
  const reads = ruleReads(trx, ownerRole);
  const holders = await reads.holders.execute();
  if (holders.length === 0) return;
  const role = (await reads.role.executeTakeFirst())?.permissions ?? [];
  const isFull = (holder: RoleHolder | null) =>
    holder !== null && role.every((permission) => abilityPermits(compiledPermissions({ role, granted: holder.granted_permissions, denied: holder.denied_permissions }).ability, permission));
  const isMember = (holder: RoleHolder) => holder.user_id === userId && holder.route_group === routeGroup;
  const changed = holders.find(isMember);
  if (!changed || !isFull(changed)) return;
  if (holders.some((holder) => (isMember(holder) ? isFull(afterFate(holder, fate)) : isFull(holder)))) return;
  throw new AccessDeniedError(`The last ${ownerRole} of the organization cannot be demoted, removed or denied a permission of the ${ownerRole} role.`);
}
