import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyst, type TestAnalyst } from '../support/analyst.js';
import { copyOut } from '../support/copy-out.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { demoMemberEmails, demoOrganizationIds, demoPostTitles } from '../support/demo.js';
import { queryOnce } from '../support/query.js';
import { dropRoles } from '../support/roles.js';

// The demo hides posts.internal_notes from analysts (policies/migrations/002), and the core hides
// users' password hashes and permission lists. An analyst login granted acme, over TCP with its
// own password, tries every path to a hidden column it has: none may answer with its values.
let testDb: TestDatabase;
let acmeAnalyst: TestAnalyst;
let analyst: pg.Client;
let acme: number;

const run = async (text: string) => (await analyst.query<Record<string, unknown>>(text)).rows;
const owner = (text: string) => queryOnce<Record<string, unknown>>(testDb.ownerUrl, text);
// Every seeded acme note, so a leak of any of them shows.
const NOTES = /Do not share the Q3 dates yet|Budget approved by finance|Pen-test report in the vault/;

beforeAll(async () => {
  testDb = await createTestDatabase();
  ({ acme } = await demoOrganizationIds(testDb.ownerUrl));
  acmeAnalyst = await createAnalyst(testDb.ownerUrl, ['acme']);
  await owner("INSERT INTO audit_logs (organization_id, model, record_id, action, new_values) SELECT organization_id, 'posts', id::text, 'updated', jsonb_build_object('internal_notes', internal_notes) FROM posts");
  await owner('ANALYZE posts, users, audit_logs');
  analyst = new pg.Client({ connectionString: acmeAnalyst.url });
  await analyst.connect();
});

afterAll(async () => {
  await analyst.end();
  await testDb.drop();
  await dropRoles(acmeAnalyst.role);
});

describe('an analyst granted acme, with SELECT * as BI tools send it', () => {
  it('reads posts through the analytics view: acme rows, every column but the hidden one', async () => {
    expect(await run('SHOW search_path')).toEqual([{ search_path: 'analytics, public' }]);
    const posts = await run('SELECT * FROM posts ORDER BY title');
    expect(posts.map((post) => post.title)).toEqual(demoPostTitles('acme'));
    expect(Object.keys(posts[0]!)).toEqual(['id', 'organization_id', 'title', 'body', 'status', 'author_id', 'created_at', 'updated_at', 'deleted_at']);
    expect(new Set(posts.map((post) => post.organization_id))).toEqual(new Set([acme]));
  });

  it('reads users without password hashes or permission lists, members of acme only', async () => {
    const users = await run('SELECT * FROM users ORDER BY email');
    expect(users.map((user) => user.email)).toEqual(demoMemberEmails('acme'));
    expect(Object.keys(users[0]!)).toEqual(['id', 'name', 'email', 'created_at', 'updated_at']);
  });

  it('reads the audit trail without its values, which may hold hidden columns', async () => {
    const entries = await run('SELECT * FROM audit_logs');
    expect(entries.length).toBeGreaterThan(0);
    expect(Object.keys(entries[0]!)).not.toContain('new_values');
    await expect(run('SELECT new_values FROM public.audit_logs')).rejects.toThrow(/permission denied for table audit_logs/);
  });

  it('still names columns on the tables themselves', async () => {
    expect((await run('SELECT title FROM public.posts ORDER BY title')).map((post) => post.title)).toEqual(demoPostTitles('acme'));
  });
});

describe('no path reaches a hidden column', () => {
  it.each([
    'SELECT internal_notes FROM public.posts',
    'SELECT * FROM public.posts',
    'SELECT id FROM public.posts WHERE internal_notes IS NOT NULL',
    'SELECT id FROM public.posts ORDER BY internal_notes',
    'SELECT count(internal_notes) FROM public.posts',
    'SELECT p FROM public.posts p',
    'SELECT row_to_json(p) FROM public.posts p',
    'SELECT to_jsonb(p.*) FROM public.posts p',
    'SELECT password_hash FROM public.users',
    'SELECT u FROM public.users u',
  ])('%s is refused on the table', async (statement) => {
    await expect(run(statement)).rejects.toThrow(/permission denied for table (posts|users)/);
  });

  it('the views have no such column', async () => {
    await expect(run('SELECT internal_notes FROM posts')).rejects.toThrow(/column "internal_notes" does not exist/);
    await expect(run('SELECT password_hash FROM analytics.users')).rejects.toThrow(/column "password_hash" does not exist/);
  });

  it('COPY exports the visible columns and refuses the hidden one', async () => {
    await expect(copyOut(analyst, 'COPY public.posts TO STDOUT')).rejects.toThrow(/permission denied for table posts/);
    await expect(copyOut(analyst, 'COPY public.posts (internal_notes) TO STDOUT')).rejects.toThrow(/permission denied for table posts/);
    const exported = await copyOut(analyst, 'COPY (SELECT * FROM posts) TO STDOUT');
    expect(exported.trim().split('\n')).toHaveLength(demoPostTitles('acme').length);
    expect(exported).not.toMatch(NOTES);
  });

  it('a temporary view or a SECURITY DEFINER function of its own runs with its own privileges', async () => {
    await run('BEGIN');
    try {
      await run('CREATE TEMPORARY VIEW notes AS SELECT internal_notes FROM public.posts');
      await run('CREATE FUNCTION pg_temp.notes() RETURNS SETOF text LANGUAGE sql SECURITY DEFINER AS $$ SELECT internal_notes FROM public.posts $$');
      await run('SAVEPOINT before');
      await expect(run('SELECT * FROM notes')).rejects.toThrow(/permission denied for table posts/);
      await run('ROLLBACK TO SAVEPOINT before');
      await expect(run('SELECT pg_temp.notes()')).rejects.toThrow(/permission denied for table posts/);
    } finally {
      await run('ROLLBACK');
    }
  });

  it('the planner statistics show none of it', async () => {
    expect(await owner("SELECT attname FROM pg_stats WHERE tablename = 'posts' AND attname = 'internal_notes'")).toHaveLength(1);
    expect(await run("SELECT attname, most_common_vals::text FROM pg_stats WHERE attname IN ('internal_notes', 'password_hash')")).toEqual([]);
    expect(await run("SELECT * FROM pg_stats WHERE schemaname IN ('public', 'analytics')")).toEqual([]);
  });

  it('switching to the group role changes nothing', async () => {
    await run('SET ROLE gatehouse_analyst');
    try {
      await expect(run('SELECT internal_notes FROM public.posts')).rejects.toThrow(/permission denied for table posts/);
    } finally {
      await run('RESET ROLE');
    }
  });

  it('the views are read-only', async () => {
    for (const statement of ["UPDATE posts SET title = 'analyst was here'", 'DELETE FROM posts', "INSERT INTO posts (organization_id, title) VALUES (1, 'x')"]) {
      await expect(run(statement), statement).rejects.toThrow(/permission denied for view posts/);
    }
  });
});

describe('declaring hidden columns', () => {
  it('keeps the declared columns when a table is enabled again, and hides a new column until then', async () => {
    const readable = async (column: string) =>
      (await owner(`SELECT has_column_privilege('gatehouse_analyst', 'posts', '${column}', 'SELECT') AS ok`))[0]?.ok;
    expect(await owner('SELECT table_name::text, column_name::text FROM gatehouse.analyst_hidden_columns ORDER BY 1, 2')).toContainEqual({
      table_name: 'posts',
      column_name: 'internal_notes',
    });
    await owner("SELECT gatehouse.enable_tenant_table('posts')");
    expect(await readable('internal_notes')).toBe(false);
    expect(await readable('title')).toBe(true);
    await owner('ALTER TABLE posts ADD COLUMN reviewer_notes text');
    try {
      expect(await readable('reviewer_notes')).toBe(false);
      await owner("SELECT gatehouse.enable_tenant_table('posts', analyst_hidden => ARRAY['internal_notes', 'reviewer_notes'])");
      expect(await readable('reviewer_notes')).toBe(false);
    } finally {
      await owner('ALTER TABLE posts DROP COLUMN reviewer_notes');
      await owner("SELECT gatehouse.enable_tenant_table('posts', analyst_hidden => ARRAY['internal_notes'])");
    }
  });

  it('refuses a column the table does not have', async () => {
    await expect(owner("SELECT gatehouse.enable_tenant_table('posts', analyst_hidden => ARRAY['internal_note'])")).rejects.toThrow(
      'table public.posts has no column internal_note to hide from analysts',
    );
  });
});
