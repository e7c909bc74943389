import { sql } from 'kysely';
import { withTenant } from '../with-tenant.js';
import type { Executor } from './executor.js';

export interface OrganizationRecord {
  id: number;
  name: string;
  slug: string;
}

export function findOrganizationBySlug(db: Executor, slug: string): Promise<OrganizationRecord | undefined> {
  return db.selectFrom('organizations').select(['id', 'name', 'slug']).where('slug', '=', slug).executeTakeFirst();
}

export function findOrganizationById(db: Executor, id: number): Promise<OrganizationRecord | undefined> {
  return db.selectFrom('organizations').select(['id', 'name', 'slug']).where('id', '=', id).executeTakeFirst();
}

export interface NewOrganization {
  name: string;
  slug: string;
  owner: { userId: number; roleId: number; routeGroup: string };
  /** Permissions per role id the organization starts with. */
  rolePermissions: ReadonlyMap<number, readonly string[]>;
}

/**
 * Creates the organization, its role permissions and the owner's membership in one transaction.
 * The id is drawn from the identity sequence first, so the whole transaction can run inside the
 * new organization's tenant context and pass row-level security like any other request.
 */
export async function createOrganization(db: Executor, organization: NewOrganization): Promise<OrganizationRecord | null> {
  const { rows } = await sql<{ id: number }>`SELECT nextval(pg_get_serial_sequence('organizations', 'id'))::integer AS id`.execute(db);
  const id = rows[0]!.id;
  return withTenant(db, { organizationId: id, userId: organization.owner.userId }, async (trx) => {
    const inserted = await sql<OrganizationRecord>`
      INSERT INTO organizations (id, name, slug) OVERRIDING SYSTEM VALUE
      VALUES (${id}, ${organization.name}, ${organization.slug})
      ON CONFLICT (slug) DO NOTHING
      RETURNING id, name, slug`.execute(trx);
    const created = inserted.rows[0];
    if (!created) return null;
    const rolePermissions = [...organization.rolePermissions].map(([roleId, permissions]) => ({
      organization_id: id,
      role_id: roleId,
      permissions: [...permissions],
    }));
    if (rolePermissions.length > 0) await trx.insertInto('org_role_permissions').values(rolePermissions).execute();
    await trx
      .insertInto('user_roles')
      .values({ user_id: organization.owner.userId, organization_id: id, role_id: organization.owner.roleId, route_group: organization.owner.routeGroup })
      .execute();
    return created;
  });
}
