import pg from 'pg';
import { DEMO_ROLES } from '../../policies/demo-accounts.js';
import { seedBenchTenant, type BenchTenant } from './seed-bench-tenant.js';

/** The demo logins the hostile organization's members sign in as; `refuser` may only read. */
export const HOSTILE_MEMBERS = { owner: 'owner@acme.test', editor: 'editor@acme.test', admin: 'admin@example.test', refuser: 'viewer@acme.test' } as const;

/**
 * The `bench` organization with `rows` posts, two comments on each (so an include has something
 * to expand at every hop), the demo roles, and four members: three who may read and write
 * everything, and a viewer whose deletions are refused.
 */
export async function seedHostileTenant(ownerUrl: string, rows: number): Promise<BenchTenant> {
  const tenant = await seedBenchTenant(ownerUrl, rows);
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const { organizationId } = tenant;
    await client.query(
      `INSERT INTO org_role_permissions (organization_id, role_id, permissions)
       SELECT $1, roles.id, granted.permissions FROM jsonb_to_recordset($2::jsonb) AS granted(slug text, permissions text[]) JOIN roles USING (slug)
       ON CONFLICT DO NOTHING`,
      [organizationId, JSON.stringify(DEMO_ROLES.filter((role) => role.slug !== 'owner'))],
    );
    const members = [
      [HOSTILE_MEMBERS.editor, 'owner'],
      [HOSTILE_MEMBERS.admin, 'owner'],
      [HOSTILE_MEMBERS.refuser, 'viewer'],
    ];
    for (const [email, role] of members) {
      await client.query(
        `INSERT INTO user_roles (user_id, organization_id, role_id, route_group)
         SELECT users.id, $1, roles.id, 'tenant' FROM users, roles WHERE users.email = $2 AND roles.slug = $3`,
        [organizationId, email, role],
      );
    }
    await client.query(
      `INSERT INTO comments (organization_id, post_id, body, author_id)
       SELECT $1, posts.id, 'Comment ' || n || ' on ' || posts.title, posts.author_id FROM posts, generate_series(1, 2) AS n WHERE posts.organization_id = $1`,
      [organizationId],
    );
    await client.query('VACUUM ANALYZE comments');
    return tenant;
  } finally {
    await client.end();
  }
}
