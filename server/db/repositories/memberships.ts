import { withTenant } from '../transactions/tenant-transaction.js';
import type { RequestDeadline } from '../transactions/request-deadline.js';
import type { Executor } from './executor.js';
import type { TenantTransaction } from '../transactions/tenant-transaction.js';
import { CONTEXT_ORGANIZATION } from './context-organization.js';

export interface MembershipRecord {
  role_id: number;
  role_slug: string;
  /** The role's permissions in the organization; none configured means none. */
  role_permissions: string[];
  granted_permissions: string[];
  denied_permissions: string[];
}

export interface UserOrganization {
  id: number;
  name: string;
  slug: string;
}

/** Whether the user holds any membership row for the route group (membership enforcement). */
export function hasGroupMembership(db: Executor, userId: number, routeGroup: string, deadline?: RequestDeadline): Promise<boolean> {
  return withTenant(db, { organizationId: null, userId }, async (trx) => {
    const row = await trx
      .selectFrom('user_roles')
      .select('id')
      .where('user_id', '=', userId)
      .where('route_group', '=', routeGroup)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }, deadline);
}

/** The user's organizations in a route group, oldest membership first: the first is the default. */
export function listUserOrganizations(db: Executor, userId: number, routeGroup: string, deadline?: RequestDeadline): Promise<UserOrganization[]> {
  return withTenant(db, { organizationId: null, userId }, (trx) =>
    trx
      .selectFrom('user_roles')
      .innerJoin('organizations', 'organizations.id', 'user_roles.organization_id')
      .select(['organizations.id', 'organizations.name', 'organizations.slug'])
      .where('user_roles.user_id', '=', userId)
      .where('user_roles.route_group', '=', routeGroup)
      .orderBy('user_roles.id')
      .execute(),
    deadline,
  );
}

/**
 * Runs inside the organization's tenant context. The role and its permissions in the organization
 * come along, so a request learns everything it authorizes with in one round trip.
 */
export async function findMembership(trx: TenantTransaction, organizationId: number, userId: number, routeGroup: string): Promise<MembershipRecord | undefined> {
  const row = await trx
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .leftJoin('org_role_permissions', (join) =>
      join.onRef('org_role_permissions.role_id', '=', 'user_roles.role_id').onRef('org_role_permissions.organization_id', '=', 'user_roles.organization_id'),
    )
    .select([
      'user_roles.role_id',
      'roles.slug as role_slug',
      'org_role_permissions.permissions as role_permissions',
      'user_roles.granted_permissions',
      'user_roles.denied_permissions',
    ])
    .where('user_roles.organization_id', '=', organizationId)
    .where('user_roles.user_id', '=', userId)
    .where('user_roles.route_group', '=', routeGroup)
    .executeTakeFirst();
  return row && { ...row, role_permissions: row.role_permissions ?? [] };
}

/** The membership of the user with the email in the route group of the tenant context's organization: one statement, which a request sends with its opening. */
export function memberByEmail(trx: TenantTransaction, email: string, routeGroup: string) {
  return trx
    .selectFrom('user_roles')
    .innerJoin('users', 'users.id', 'user_roles.user_id')
    .select('user_roles.id')
    .where('user_roles.organization_id', '=', CONTEXT_ORGANIZATION)
    .where('user_roles.route_group', '=', routeGroup)
    .where((eb) => eb(eb.fn('lower', ['users.email']), '=', email.toLowerCase()));
}

/** Adds a membership; an existing one for the same organization and group is left as it is. */
export async function addMembership(
  trx: TenantTransaction,
  membership: { userId: number; organizationId: number; roleId: number; routeGroup: string | null },
): Promise<void> {
  await trx
    .insertInto('user_roles')
    .values({ user_id: membership.userId, organization_id: membership.organizationId, role_id: membership.roleId, route_group: membership.routeGroup })
    .onConflict((conflict) => conflict.columns(['user_id', 'organization_id', 'route_group']).doNothing())
    .execute();
}

export interface MemberRecord {
  id: number;
  name: string;
  email: string;
  role_id: number;
}

export function listMembers(trx: TenantTransaction, organizationId: number, routeGroup: string): Promise<MemberRecord[]> {
  return trx
    .selectFrom('user_roles')
    .innerJoin('users', 'users.id', 'user_roles.user_id')
    .select(['users.id', 'users.name', 'users.email', 'user_roles.role_id'])
    .where('user_roles.organization_id', '=', organizationId)
    .where('user_roles.route_group', '=', routeGroup)
    .orderBy('users.id')
    .execute();
}

export function isMember(db: Executor, organizationId: number, userId: number, routeGroup: string, deadline?: RequestDeadline): Promise<boolean> {
  return withTenant(db, { organizationId, userId }, async (trx) => (await findMembership(trx, organizationId, userId, routeGroup)) !== undefined, deadline);
}

/**
 * How many organizations the user holds the role in, in any route group; run in a context with
 * the user, whose own memberships row-level security shows from any organization.
 */
export async function countOrganizationsWithRole(trx: TenantTransaction, userId: number, roleId: number): Promise<number> {
  const { count } = await trx
    .selectFrom('user_roles')
    .select((eb) => eb.fn.count<string>('organization_id').distinct().as('count'))
    .where('user_id', '=', userId)
    .where('role_id', '=', roleId)
    .executeTakeFirstOrThrow();
  return Number(count);
}
