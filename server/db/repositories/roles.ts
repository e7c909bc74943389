import type { Executor } from './executor.js';
import type { RequestDeadline } from '../transactions/request-deadline.js';
import { runWithinDeadline } from '../transactions/request-read.js';
import type { TenantTransaction } from '../transactions/tenant-transaction.js';
import { CONTEXT_ORGANIZATION, type OrganizationRef } from './context-organization.js';

export interface RoleRecord {
  id: number;
  name: string;
  slug: string;
}

export function findRolesBySlug(db: Executor, slugs: readonly string[], deadline?: RequestDeadline): Promise<RoleRecord[]> {
  if (slugs.length === 0) return Promise.resolve([]);
  return runWithinDeadline(db, db.selectFrom('roles').select(['id', 'name', 'slug']).where('slug', 'in', slugs).compile(), deadline);
}

export async function findRoleBySlug(db: Executor, slug: string): Promise<RoleRecord | undefined> {
  return (await findRolesBySlug(db, [slug]))[0];
}

/** Adds a role (roles are shared by every organization); null when the slug is taken. */
export async function createRole(db: Executor, role: { name: string; slug: string }): Promise<RoleRecord | null> {
  const created = await db
    .insertInto('roles')
    .values(role)
    .onConflict((conflict) => conflict.column('slug').doNothing())
    .returning(['id', 'name', 'slug'])
    .executeTakeFirst();
  return created ?? null;
}

/** Roles configured in the organization (those with a permissions row), in id order. */
export function listOrganizationRoles(trx: TenantTransaction, organizationId: number): Promise<RoleRecord[]> {
  return trx
    .selectFrom('org_role_permissions')
    .innerJoin('roles', 'roles.id', 'org_role_permissions.role_id')
    .select(['roles.id', 'roles.name', 'roles.slug'])
    .where('org_role_permissions.organization_id', '=', organizationId)
    .orderBy('roles.id')
    .execute();
}

export interface RolePermissions {
  slug: string;
  permissions: string[];
}

/** Roles with their permissions in the organization (null where none are configured). */
function rolesIn(trx: TenantTransaction, organization: OrganizationRef) {
  return trx
    .selectFrom('roles')
    .leftJoin('org_role_permissions', (join) => join.onRef('org_role_permissions.role_id', '=', 'roles.id').on('org_role_permissions.organization_id', '=', organization))
    .select(['roles.id', 'roles.name', 'roles.slug', 'org_role_permissions.permissions']);
}

/** The role's slug with its permissions in this organization; none configured means none. */
export async function findRolePermissions(trx: TenantTransaction, organizationId: number, roleId: number): Promise<RolePermissions | undefined> {
  return rolesIn(trx, organizationId)
    .where('roles.id', '=', roleId)
    .executeTakeFirst()
    .then((row) => row && { slug: row.slug, permissions: row.permissions ?? [] });
}

/** A role with its permissions in the tenant context's organization, by id or slug; `permissions` null: not configured there. */
export function roleInContext(trx: TenantTransaction, role: { id: number } | { slug: string }) {
  const roles = rolesIn(trx, CONTEXT_ORGANIZATION);
  return 'id' in role ? roles.where('roles.id', '=', role.id) : roles.where('roles.slug', '=', role.slug);
}

/** Replaces the role's permissions in the organization, configuring it there if it was not; returns what it wrote. */
export function rolePermissionsUpsert(trx: TenantTransaction, organizationId: number, roleId: number, permissions: readonly string[]) {
  return trx
    .insertInto('org_role_permissions')
    .values({ organization_id: organizationId, role_id: roleId, permissions: [...permissions] })
    .onConflict((conflict) => conflict.columns(['organization_id', 'role_id']).doUpdateSet({ permissions: [...permissions] }))
    .returning(['organization_id', 'role_id']);
}
