import type { TenantTransaction } from '../transactions/tenant-transaction.js';

/** A member of one organization and route group, with the role and the per-user lists. */
export interface MemberDetails {
  id: number;
  name: string;
  email: string;
  role_id: number;
  role_slug: string;
  role_name: string;
  granted_permissions: string[];
  denied_permissions: string[];
}

export interface MembershipKey {
  organizationId: number;
  routeGroup: string;
}

function members(trx: TenantTransaction, key: MembershipKey) {
  return trx
    .selectFrom('user_roles')
    .innerJoin('users', 'users.id', 'user_roles.user_id')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select([
      'users.id',
      'users.name',
      'users.email',
      'user_roles.role_id',
      'roles.slug as role_slug',
      'roles.name as role_name',
      'user_roles.granted_permissions',
      'user_roles.denied_permissions',
    ])
    .where('user_roles.organization_id', '=', key.organizationId)
    .where('user_roles.route_group', '=', key.routeGroup);
}

export function listMemberDetails(trx: TenantTransaction, key: MembershipKey): Promise<MemberDetails[]> {
  return members(trx, key).orderBy('users.id').execute();
}

export function findMemberDetails(trx: TenantTransaction, key: MembershipKey, userId: number): Promise<MemberDetails | undefined> {
  return members(trx, key).where('users.id', '=', userId).executeTakeFirst();
}

export interface MembershipChanges {
  role_id?: number;
  granted_permissions?: string[];
  denied_permissions?: string[];
}

export async function updateMembership(trx: TenantTransaction, key: MembershipKey, userId: number, changes: MembershipChanges): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await trx
    .updateTable('user_roles')
    .set(changes)
    .where('organization_id', '=', key.organizationId)
    .where('route_group', '=', key.routeGroup)
    .where('user_id', '=', userId)
    .execute();
}

export async function removeMembership(trx: TenantTransaction, key: MembershipKey, userId: number): Promise<void> {
  await trx
    .deleteFrom('user_roles')
    .where('organization_id', '=', key.organizationId)
    .where('route_group', '=', key.routeGroup)
    .where('user_id', '=', userId)
    .execute();
}

/** A membership holding the role, in any route group of the organization. */
export interface RoleHolder {
  user_id: number;
  role_id: number;
  route_group: string | null;
  granted_permissions: string[];
  denied_permissions: string[];
}

/**
 * The memberships of the organization holding the role, locked until the transaction ends, in
 * one order so that concurrent callers queue instead of deadlocking. A caller that waited reads
 * the rows as the transaction before it left them.
 */
export function lockRoleHolders(trx: TenantTransaction, organizationId: number, roleSlug: string): Promise<RoleHolder[]> {
  return trx
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['user_roles.user_id', 'user_roles.role_id', 'user_roles.route_group', 'user_roles.granted_permissions', 'user_roles.denied_permissions'])
    .where('user_roles.organization_id', '=', organizationId)
    .where('roles.slug', '=', roleSlug)
    .orderBy('user_roles.id')
    .forUpdate('user_roles')
    .execute();
}
