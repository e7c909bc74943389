import { sql } from 'kysely';
import { takeTurn } from '../transactions/claim-turns.js';
import { enterOrganization, withTenant, type TenantTransaction } from '../transactions/tenant-transaction.js';
import type { Executor } from './executor.js';
import type { RequestDeadline } from '../transactions/request-deadline.js';
import { runWithinDeadline } from '../transactions/request-read.js';

export interface OrganizationRecord {
  id: number;
  name: string;
  slug: string;
}

const organizations = (db: Executor) => db.selectFrom('organizations').select(['id', 'name', 'slug']);

/** The organization `slug` names; within a request's `deadline` (`request-read.ts`) when given. */
export async function findOrganizationBySlug(db: Executor, slug: string, deadline?: RequestDeadline): Promise<OrganizationRecord | undefined> {
  const [organization] = await runWithinDeadline(db, organizations(db).where('slug', '=', slug).compile(), deadline);
  return organization;
}

export async function findOrganizationById(db: Executor, id: number, deadline?: RequestDeadline): Promise<OrganizationRecord | undefined> {
  const [organization] = await runWithinDeadline(db, organizations(db).where('id', '=', id).compile(), deadline);
  return organization;
}

export interface NewOrganization {
  name: string;
  slug: string;
  /** Its first member; none when an operator creates it (`gatehouse org create`). */
  owner: { userId: number; roleId: number; routeGroup: string } | null;
  /** Permissions per role id the organization starts with. */
  rolePermissions: ReadonlyMap<number, readonly string[]>;
}

// A new organization's id, from the identity sequence every tenant's organizations share: an
// integer, 2^31 of them, so nothing that does not create an organization may draw one.
const NEXT_ID = sql<number>`nextval(pg_get_serial_sequence('organizations', 'id'))::integer`;

/**
 * Draws the next organization id from the identity sequence, so the organization's rows can be
 * written inside its own tenant context and pass row-level security like any other request.
 */
export async function nextOrganizationId(db: Executor, deadline?: RequestDeadline): Promise<number> {
  const [row] = await runWithinDeadline(db, sql<{ id: number }>`SELECT ${NEXT_ID} AS id`.compile(db), deadline);
  return row!.id;
}

/**
 * Writes the organization `id` (from nextOrganizationId), its role permissions and the owner's
 * membership, in a transaction in its tenant context; null when the slug is taken.
 */
export async function insertOrganization(trx: TenantTransaction, id: number, organization: NewOrganization): Promise<OrganizationRecord | null> {
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
  const { owner } = organization;
  if (owner) {
    await trx.insertInto('user_roles').values({ user_id: owner.userId, organization_id: id, role_id: owner.roleId, route_group: owner.routeGroup }).execute();
  }
  return created;
}

/** The slug is taken: the creation is rolled back, with whatever its limits counted. */
class SlugTakenError extends Error {}

/**
 * Creates the organization, its role permissions and the owner's membership in one transaction;
 * null when the slug is taken. `admit` runs first, in the owner's context, and may refuse the
 * creation by throwing, which rolls all of it back. Only a creation admitted for a free slug draws
 * an id: refusals, which anyone may send at will, would otherwise use up every tenant's ids.
 */
export async function createOrganization(
  db: Executor,
  organization: NewOrganization,
  admit: (trx: TenantTransaction) => Promise<void> = async () => {},
  deadline?: RequestDeadline,
): Promise<OrganizationRecord | null> {
  try {
    return await withTenant(db, { organizationId: null, userId: organization.owner?.userId ?? null }, async (trx) => {
      await takeTurn(trx, 'organizations.slug');
      if (await findOrganizationBySlug(trx, organization.slug)) throw new SlugTakenError();
      await admit(trx);
      // The operator's `gatehouse org create`, which holds no slug, may still take it first.
      const created = await insertOrganization(trx, await enterOrganization(trx, NEXT_ID), organization);
      if (!created) throw new SlugTakenError();
      return created;
    }, deadline);
  } catch (error) {
    if (error instanceof SlugTakenError) return null;
    throw error;
  }
}
