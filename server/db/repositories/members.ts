import type { TenantTransaction } from '../transactions/tenant-transaction.js';
import { CONTEXT_ORGANIZATION, type OrganizationRef } from './context-organization.js';

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

function members(trx: TenantTransaction, organization: OrganizationRef, routeGroup: string) {
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
    .where('user_roles.organization_id', '=', organization)
    .where('user_roles.route_group', '=', routeGroup);
}

export function listMemberDetails(trx: TenantTransaction, key: MembershipKey): Promise<MemberDetails[]> {
  return members(trx, key.organizationId, key.routeGroup).orderBy('users.id').execute();
}

export function findMemberDetails(trx: TenantTransaction, key: MembershipKey, userId: number): Promise<MemberDetails | undefined> {
  return members(trx, key.organizationId, key.routeGroup).where('users.id', '=', userId).executeTakeFirst();
}

/** A member about to be changed, with the permissions of their role in the organization (none configured: none). */
export interface MemberToChange extends MemberDetails {
  role_permissions: string[] | null;
}

/**
 * The member `userId` of the route group in the tenant context's organization, with their role's
 * permissions there: one statement, which a request sends with its opening.
 */
export function memberToChange(trx: TenantTransaction, routeGroup: string, userId: number) {
  return members(trx, CONTEXT_ORGANIZATION, routeGroup)
    .leftJoin('org_role_permissions', (join) =>
      join.onRef('org_role_permissions.role_id', '=', 'user_roles.role_id').onRef('org_role_permissions.organization_id', '=', 'user_roles.organization_id'),
    )
    .select('org_role_permissions.permissions as role_permissions')
    .where('users.id', '=', userId);
}

export interface MembershipChanges {
  role_id?: number;
  granted_permissions?: string[];
  denied_permissions?: string[];
}

/** The membership's update, returning what it wrote (for the audit row written with it). */
export function membershipUpdate(trx: TenantTransaction, key: MembershipKey, userId: number, changes: MembershipChanges) {
  return trx
    .updateTable('user_roles')
    .set(changes)
    .where('organization_id', '=', key.organizationId)
    .where('route_group', '=', key.routeGroup)
    .where('user_id', '=', userId)
    .returning(['organization_id', 'user_id', 'role_id', 'granted_permissions', 'denied_permissions']);
}

/** The membership's removal, returning what it removed (for the audit row written with it). */
export function membershipRemoval(trx: TenantTransaction, key: MembershipKey, userId: number) {
  return trx
    .deleteFrom('user_roles')
    .where('organization_id', '=', key.organizationId)
    .where('route_group', '=', key.routeGroup)
    .where('user_id', '=', userId)
    .returning(['organization_id', 'user_id']);
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
 * The memberships of the tenant context's organization holding the role, locked until the
 * transaction ends, in one order so that concurrent callers queue instead of deadlocking. A caller that waited reads
 * the rows as the transaction before it left them.
 */
export function lockRoleHolders(trx: TenantTransaction, roleSlug: string) {
  return trx
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['user_roles.user_id', 'user_roles.role_id', 'user_roles.route_group', 'user_roles.granted_permissions', 'user_roles.denied_permissions'])
    .where('user_roles.organization_id', '=', CONTEXT_ORGANIZATION)
    .where('roles.slug', '=', roleSlug)
    .orderBy('user_roles.id')
    .forUpdate('user_roles');
}
