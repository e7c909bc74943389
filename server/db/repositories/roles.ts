import type { Executor } from './executor.js';
import type { TenantTransaction } from '../transactions/tenant-transaction.js';

export interface RoleRecord {
  id: number;
  name: string;
  slug: string;
}

export function findRolesBySlug(db: Executor, slugs: readonly string[]): Promise<RoleRecord[]> {
  if (slugs.length === 0) return Promise.resolve([]);
  return db.selectFrom('roles').select(['id', 'name', 'slug']).where('slug', 'in', slugs).execute();
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

/** The role's slug with its permissions in this organization; none configured means none. */
export async function findRolePermissions(trx: TenantTransaction, organizationId: number, roleId: number): Promise<RolePermissions | undefined> {
  return trx
    .selectFrom('roles')
    .leftJoin('org_role_permissions', (join) =>
      join.onRef('org_role_permissions.role_id', '=', 'roles.id').on('org_role_permissions.organization_id', '=', organizationId),
    )
    .select(['roles.slug', 'org_role_permissions.permissions'])
    .where('roles.id', '=', roleId)
    .executeTakeFirst()
    .then((row) => row && { slug: row.slug, permissions: row.permissions ?? [] });
}

export function findRole(trx: TenantTransaction, roleId: number): Promise<RoleRecord | undefined> {
  return trx.selectFrom('roles').select(['id', 'name', 'slug']).where('id', '=', roleId).executeTakeFirst();
}

/** Replaces the role's permissions in the organization, configuring the role there if it was not. */
export async function setRolePermissions(trx: TenantTransaction, organizationId: number, roleId: number, permissions: readonly string[]): Promise<void> {
  await trx
    .insertInto('org_role_permissions')
    .values({ organization_id: organizationId, role_id: roleId, permissions: [...permissions] })
    .onConflict((conflict) => conflict.columns(['organization_id', 'role_id']).doUpdateSet({ permissions: [...permissions] }))
    .execute();
}
