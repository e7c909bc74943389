import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConnectionString, openDatabase, type Database } from '../../server/db/connection/database.js';
import type { DemoSchema } from '../../policies/schema.js';
import { withTenant, type TenantContext } from '../../server/db/transactions/tenant-transaction.js';
import { copyOut } from '../support/copy-out.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { demoOrganizationIds, demoPostTitles } from '../support/demo.js';
import { titlesSeenByLeakyFunction } from '../support/leaky-function.js';
import { queryOnce } from '../support/query.js';

// The service's own connection, attacked with SQL a compromised request could send: every
// statement runs as gatehouse_app inside a request's tenant transaction.
let testDb: TestDatabase;
let app: Database<DemoSchema>;
let acme: number;
let globex: number;
let globexPost: number;
let acmePost: number;

class Rollback extends Error {}

/** Runs fn as a request of `context` would, then rolls back so tests do not disturb each other. */
async function asRequest<T>(context: Partial<TenantContext>, fn: (trx: Kysely<DemoSchema>) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await withTenant(app.db, { organizationId: null, userId: null, ...context }, async (trx) => {
    result = await fn(trx);
    throw new Rollback();
  }).catch((error: unknown) => {
    if (!(error instanceof Rollback)) throw error;
  });
  return result as T;
}

const asAcme = <T>(fn: (trx: Kysely<DemoSchema>) => Promise<T>) => asRequest({ organizationId: acme }, fn);
const rows = async (trx: Kysely<DemoSchema>, text: string) => (await sql.raw<Record<string, unknown>>(text).execute(trx)).rows;
const owner = (text: string, values: unknown[] = []) => queryOnce(testDb.ownerUrl, text, values);

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = openDatabase<DemoSchema>({ connectionString: testDb.ownerUrl, maxConnections: 2 });
  ({ acme, globex } = await demoOrganizationIds(testDb.ownerUrl));
  const firstPost = async (organizationId: number) =>
    Number((await owner('SELECT min(id) AS id FROM posts WHERE organization_id = $1', [organizationId]))[0]?.id);
  acmePost = await firstPost(acme);
  globexPost = await firstPost(globex);
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('reading another tenant', () => {
  it('SELECT shows only the tenant in context, whatever the WHERE clause asks for', async () => {
    await asAcme(async (trx) => {
      expect((await rows(trx, 'SELECT title FROM posts ORDER BY title')).map((row) => row.title)).toEqual(demoPostTitles('acme'));
      expect(await rows(trx, `SELECT id FROM posts WHERE organization_id = ${globex}`)).toEqual([]);
      expect(await rows(trx, `SELECT id FROM posts WHERE id = ${globexPost}`)).toEqual([]);
      expect(await rows(trx, `SELECT id FROM comments WHERE organization_id = ${globex}`)).toEqual([]);
    });
  });

  it('JOINs and subqueries see the same filtered tables', async () => {
    await asAcme(async (trx) => {
      const joined = await rows(trx, 'SELECT DISTINCT p.organization_id FROM comments c JOIN posts p ON p.id = c.post_id');
      expect(joined).toEqual([{ organization_id: acme }]);
      const outer = await rows(trx, `SELECT c.id FROM comments c RIGHT JOIN posts p ON p.id = c.post_id WHERE p.organization_id = ${globex}`);
      expect(outer).toEqual([]);
      const [counts] = await rows(
        trx,
        `SELECT (SELECT count(*) FROM posts WHERE organization_id = ${globex})::int AS globex_posts,
                EXISTS (SELECT 1 FROM comments WHERE post_id = ${globexPost}) AS globex_comments,
                (SELECT count(*) FROM posts)::int AS visible_posts`,
      );
      expect(counts).toEqual({ globex_posts: 0, globex_comments: false, visible_posts: demoPostTitles('acme').length });
    });
  });

  it('COPY TO exports only the tenant in context, and COPY FROM is refused', async () => {
    const client = new pg.Client({ connectionString: appConnectionString(testDb.ownerUrl) });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query("SELECT set_config('gatehouse.organization_id', $1, true)", [String(acme)]);
      const exported = await copyOut(client, 'COPY posts (organization_id, title) TO STDOUT');
      const lines = exported.trim().split('\n');
      expect(lines.map((line) => line.split('\t')[1]).sort()).toEqual(demoPostTitles('acme'));
      expect(lines.every((line) => line.startsWith(`${acme}\t`))).toBe(true);
      await client.query('ROLLBACK');
      await expect(client.query('COPY posts FROM STDIN')).rejects.toThrow(/COPY FROM not supported with row-level security/);
    } finally {
      await client.end();
    }
  });

  it('the planner statistics do not reveal other tenants’ values', async () => {
    await owner('ANALYZE posts');
    await asAcme(async (trx) => {
      expect(await rows(trx, "SELECT attname FROM pg_stats WHERE tablename = 'posts'")).toEqual([]);
    });
  });

  it('a function in the WHERE clause never sees the rows row-level security removes', async () => {
    await asAcme(async (trx) => {
      expect(await titlesSeenByLeakyFunction((text) => rows(trx, text))).toEqual(demoPostTitles('acme'));
    });
  });
});

describe('writing another tenant', () => {
  it('UPDATE and DELETE of its rows touch nothing', async () => {
    await asAcme(async (trx) => {
      expect(await trx.updateTable('posts').set({ title: 'hijacked' }).where('id', '=', globexPost).executeTakeFirst()).toMatchObject({ numUpdatedRows: 0n });
      expect(await trx.deleteFrom('comments').where('organization_id', '=', globex).executeTakeFirst()).toMatchObject({ numDeletedRows: 0n });
      expect(await trx.deleteFrom('posts').where('organization_id', '=', globex).executeTakeFirst()).toMatchObject({ numDeletedRows: 0n });
      expect(await trx.updateTable('organizations').set({ name: 'hijacked' }).where('id', '=', globex).executeTakeFirst()).toMatchObject({ numUpdatedRows: 0n });
      expect(await trx.deleteFrom('organizations').where('id', '=', globex).executeTakeFirst()).toMatchObject({ numDeletedRows: 0n });
    });
    const [globexNow] = await owner('SELECT name, (SELECT count(*) FROM posts WHERE organization_id = $1)::int AS posts FROM organizations WHERE id = $1', [globex]);
    expect(globexNow).toEqual({ name: 'Globex Industries', posts: demoPostTitles('globex').length });
  });

  it('INSERT with another organization_id is refused', async () => {
    await expect(asAcme((trx) => trx.insertInto('posts').values({ organization_id: globex, title: 'smuggled' }).execute())).rejects.toThrow(
      /row-level security/,
    );
    await expect(
      asAcme((trx) => trx.insertInto('audit_logs').values({ organization_id: globex, model: 'posts', record_id: '1', action: 'created' }).execute()),
    ).rejects.toThrow(/row-level security/);
  });

  it('moving its own row into another organization is refused', async () => {
    await expect(asAcme((trx) => trx.updateTable('posts').set({ organization_id: globex }).where('id', '=', acmePost).execute())).rejects.toThrow(
      /row-level security/,
    );
  });

  it('a comment always takes its post’s organization, and another tenant’s post is not found', async () => {
    await expect(asAcme((trx) => trx.insertInto('comments').values({ post_id: globexPost, body: 'smuggled' }).execute())).rejects.toThrow(
      `post ${globexPost} not found`,
    );
    await asAcme(async (trx) => {
      const comment = await trx
        .insertInto('comments')
        .values({ post_id: acmePost, organization_id: globex, body: 'mine' })
        .returning(['id', 'organization_id'])
        .executeTakeFirstOrThrow();
      expect(comment.organization_id).toBe(acme);
      const moved = await trx.updateTable('comments').set({ organization_id: globex }).where('id', '=', comment.id).returning('organization_id').executeTakeFirstOrThrow();
      expect(moved.organization_id).toBe(acme);
    });
  });

  it('a temporary table named posts cannot steer a comment into another organization', async () => {
    await expect(
      asAcme(async (trx) => {
        await rows(trx, 'CREATE TEMPORARY TABLE posts (id integer, organization_id integer)');
        await rows(trx, `INSERT INTO pg_temp.posts VALUES (${globexPost}, ${acme})`);
        await trx.insertInto('comments').values({ post_id: globexPost, body: 'smuggled' }).execute();
      }),
    ).rejects.toThrow(`post ${globexPost} not found`);
  });
});

describe('without a tenant context', () => {
  const tenantTables = ['posts', 'comments', 'audit_logs', 'org_role_permissions', 'invitations', 'user_roles'] as const;

  it('every tenant table is empty, inside a transaction or outside one', async () => {
    for (const table of tenantTables) {
      expect(await app.db.selectFrom(table).selectAll().execute(), table).toEqual([]);
      expect(await asRequest({}, (trx) => trx.selectFrom(table).selectAll().execute()), table).toEqual([]);
    }
  });

  it('nothing can be written into a tenant', async () => {
    await expect(app.db.insertInto('posts').values({ organization_id: acme, title: 'orphan' }).execute()).rejects.toThrow(/row-level security/);
  });

  it('organizations stay readable: the service finds them by slug before it has a context', async () => {
    const slugs = await app.db.selectFrom('organizations').select('slug').orderBy('slug').execute();
    expect(slugs.map((row) => row.slug)).toEqual(['acme', 'globex']);
  });
});

describe('memberships and invitations', () => {
  const userId = async (email: string) => Number((await owner('SELECT id FROM users WHERE email = $1', [email]))[0]?.id);

  it('a user sees its own memberships everywhere, but writes only those of the organization in context', async () => {
    const acmeOwner = await userId('owner@acme.test');
    await asRequest({ organizationId: globex, userId: acmeOwner }, async (trx) => {
      const visible = await trx.selectFrom('user_roles').select(['user_id', 'organization_id']).execute();
      expect(visible).toContainEqual({ user_id: acmeOwner, organization_id: acme });
      expect(visible.every((row) => row.user_id === acmeOwner || row.organization_id === globex)).toBe(true);
      const left = await trx.deleteFrom('user_roles').where('user_id', '=', acmeOwner).where('organization_id', '=', acme).executeTakeFirst();
      expect(left.numDeletedRows).toBe(0n);
      const changed = await trx.updateTable('user_roles').set({ denied_permissions: ['*'] }).where('organization_id', '=', acme).executeTakeFirst();
      expect(changed.numUpdatedRows).toBe(0n);
    });
  });

  it('an invitation is visible outside its tenant only to the holder of its token', async () => {
    const [role] = await owner("SELECT id FROM roles WHERE slug = 'viewer'");
    const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
    await owner("INSERT INTO invitations (organization_id, email, role_id, token_hash, expires_at) VALUES ($1, 'guest@example.test', $2, $3, now() + interval '1 day')", [
      globex,
      role?.id,
      hashOf('token'),
    ]);
    const invitationEmails = (context: Partial<TenantContext>) =>
      asRequest(context, async (trx) => (await trx.selectFrom('invitations').select('email').execute()).map((row) => row.email));

    expect(await invitationEmails({ organizationId: acme })).toEqual([]);
    expect(await invitationEmails({ organizationId: acme, invitationTokenHash: hashOf('another token') })).toEqual([]);
    expect(await invitationEmails({ organizationId: acme, invitationTokenHash: hashOf('token') })).toEqual(['guest@example.test']);
  });
});

describe('what the service role may not touch', () => {
  it('cannot change roles, rewrite the audit trail, or reach analyst grants and migration records', async () => {
    const refused = [
      "INSERT INTO roles (name, slug) VALUES ('Root', 'root')",
      `UPDATE audit_logs SET action = 'nothing' WHERE organization_id = ${acme}`,
      `DELETE FROM audit_logs WHERE organization_id = ${acme}`,
      'SELECT * FROM analyst_grants',
      `INSERT INTO analyst_grants (role_name, organization_id) VALUES ('someone', ${globex})`,
      'SELECT * FROM gatehouse_migrations',
      'DELETE FROM gatehouse_migrations',
      'TRUNCATE posts',
      'ALTER TABLE posts DISABLE ROW LEVEL SECURITY',
      'CREATE TABLE public.side_channel (secret text)',
    ];
    for (const statement of refused) {
      await expect(asAcme((trx) => rows(trx, statement)), statement).rejects.toThrow(/permission denied|must be owner/);
    }
  });
});
