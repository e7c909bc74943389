import pg from 'pg';
import { hashPassword, openDatabase, withTenant } from '../server/index.js';
import type { DemoSchema } from './schema.js';
import { DEMO_ORGANIZATIONS, DEMO_PASSWORD, DEMO_ROLES, DEMO_USERS } from './demo-accounts.js';

export { DEMO_ORGANIZATIONS, DEMO_PASSWORD, DEMO_ROLES, DEMO_USERS };

/**
 * Seeds the demo application of DESIGN.md 6 once: a database that already has the `acme`
 * organization is left as it is. Tenant rows are written as the service role inside each
 * organization's context, so the seed passes the same row-level security as requests do.
 */
export async function seedDemo(ownerConnectionString: string): Promise<boolean> {
  const owner = new pg.Client({ connectionString: ownerConnectionString });
  await owner.connect();
  try {
    for (const role of DEMO_ROLES) {
      // The core migrations already made `owner`: skipping present roles instead of colliding
      // with them keeps the identity sequence from spending an id on each.
      await owner.query('INSERT INTO roles (name, slug) SELECT $1, $2 WHERE NOT EXISTS (SELECT FROM roles WHERE slug = $2) ON CONFLICT (slug) DO NOTHING', [
        role.name,
        role.slug,
      ]);
    }
  } finally {
    await owner.end();
  }

  const { db, close } = openDatabase<DemoSchema>({ connectionString: ownerConnectionString, maxConnections: 2 });
  try {
    if (await db.selectFrom('organizations').select('id').where('slug', '=', 'acme').executeTakeFirst()) return false;
    const roleIds = new Map((await db.selectFrom('roles').select(['id', 'slug']).execute()).map((role) => [role.slug, role.id]));
    const roleId = (slug: string) => {
      const id = roleIds.get(slug);
      if (id === undefined) throw new Error(`demo role ${slug} is missing`);
      return id;
    };
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const userIds = new Map<string, number>();
    for (const user of DEMO_USERS) {
      const { id } = await db
        .insertInto('users')
        .values({ name: user.name, email: user.email, password_hash: passwordHash, permissions: user.permissions ?? [] })
        .returning('id')
        .executeTakeFirstOrThrow();
      userIds.set(user.email, id);
    }

    const admin = DEMO_USERS.find((user) => user.organization === null);
    if (admin) {
      const adminId = userIds.get(admin.email) ?? null;
      await withTenant(db, { organizationId: null, userId: adminId }, (trx) =>
        trx
          .insertInto('user_roles')
          .values({ user_id: adminId ?? 0, organization_id: null, role_id: roleId(admin.role), route_group: admin.routeGroup })
          .execute(),
      );
    }

    for (const organization of DEMO_ORGANIZATIONS) {
      const { id: organizationId } = await db
        .insertInto('organizations')
        .values({ name: organization.name, slug: organization.slug })
        .returning('id')
        .executeTakeFirstOrThrow();
      const members = DEMO_USERS.filter((user) => user.organization === organization.slug);
      const authorId = userIds.get(members[0]?.email ?? '') ?? null;
      await withTenant(db, { organizationId, userId: null }, async (trx) => {
        await trx
          .insertInto('org_role_permissions')
          .values(DEMO_ROLES.map((role) => ({ organization_id: organizationId, role_id: roleId(role.slug), permissions: [...role.permissions] })))
          .execute();
        for (const member of members) {
          await trx
            .insertInto('user_roles')
            .values({
              user_id: userIds.get(member.email) ?? 0,
              organization_id: organizationId,
              role_id: roleId(member.role),
              route_group: member.routeGroup,
              granted_permissions: member.granted ?? [],
              denied_permissions: member.denied ?? [],
            })
            .execute();
        }
        for (const post of organization.posts) {
          const { id: postId } = await trx
            .insertInto('posts')
            .values({
              organization_id: organizationId,
              title: post.title,
              body: post.body,
              status: post.status,
              internal_notes: post.internal_notes,
              author_id: authorId,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          for (const body of post.comments) {
            await trx.insertInto('comments').values({ post_id: postId, body, author_id: authorId }).execute();
          }
        }
      });
    }
    return true;
  } finally {
    await close();
  }
}
