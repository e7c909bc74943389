import pg from 'pg';

export interface BenchTenant {
  organizationId: number;
  slug: string;
  postId: number;
}

/**
 * A `bench` organization with `rows` posts, owned by the demo owner of acme (so the demo login
 * works there too). Written as the owner role in one statement: fast, and outside any policy.
 */
export async function seedBenchTenant(ownerUrl: string, rows: number): Promise<BenchTenant> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const slug = 'bench';
    const { rows: [organization] } = await client.query<{ id: number }>(
      `INSERT INTO organizations (name, slug) VALUES ('Bench', $1) RETURNING id`,
      [slug],
    );
    const organizationId = organization!.id;
    await client.query(
      `INSERT INTO org_role_permissions (organization_id, role_id, permissions) SELECT $1, id, '{*}' FROM roles WHERE slug = 'owner'`,
      [organizationId],
    );
    await client.query(
      `INSERT INTO user_roles (user_id, organization_id, role_id, route_group)
       SELECT users.id, $1, roles.id, 'tenant' FROM users, roles WHERE users.email = 'owner@acme.test' AND roles.slug = 'owner'`,
      [organizationId],
    );
    await client.query(
      `INSERT INTO posts (organization_id, title, body, status, internal_notes, author_id, created_at)
       SELECT $1, 'Post ' || n, 'Body of post ' || n, CASE WHEN n % 3 = 0 THEN 'draft' ELSE 'published' END, NULL,
              (SELECT id FROM users WHERE email = 'owner@acme.test'), now() - n * interval '1 minute'
       FROM generate_series(1, $2::integer) AS n`,
      [organizationId, rows],
    );
    // The steady state autovacuum reaches on a live system: statistics and the visibility map.
    await client.query('VACUUM ANALYZE posts');
    const { rows: [post] } = await client.query<{ id: number }>('SELECT max(id) AS id FROM posts WHERE organization_id = $1', [organizationId]);
    return { organizationId, slug, postId: post!.id };
  } finally {
    await client.end();
  }
}
