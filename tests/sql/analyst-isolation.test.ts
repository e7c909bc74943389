import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYST_CONNECTION_LIMIT, grantAnalystAccess, revokeAnalystAccess } from '../../server/db/logins/analyst-access.js';
import { createAnalyst, type TestAnalyst } from '../support/analyst.js';
import { copyOut } from '../support/copy-out.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { demoMemberEmails, demoOrganizationIds, demoPostTitles } from '../support/demo.js';
import { titlesSeenByLeakyFunction } from '../support/leaky-function.js';
import { queryOnce } from '../support/query.js';
import { dropRoles, uniqueRoleName } from '../support/roles.js';

// Analysts are real LOGIN roles created by the grant function, connecting over TCP with their
// own password, as `psql` would: nothing here runs as the owner except the fixtures.
let testDb: TestDatabase;
let acmeAnalyst: TestAnalyst;
let globexAnalyst: TestAnalyst;
// Revoked by its test: the other tests keep globexAnalyst's grant.
let revokedAnalyst: TestAnalyst;
let analyst: pg.Client;
let acme: number;
let globex: number;

const connect = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
};
const run = async (text: string) => (await analyst.query<Record<string, unknown>>(text)).rows;
const column = async (text: string) => (await run(text)).map((row) => Object.values(row)[0]);

beforeAll(async () => {
  testDb = await createTestDatabase();
  ({ acme, globex } = await demoOrganizationIds(testDb.ownerUrl));
  acmeAnalyst = await createAnalyst(testDb.ownerUrl, ['acme']);
  globexAnalyst = await createAnalyst(testDb.ownerUrl, ['globex']);
  revokedAnalyst = await createAnalyst(testDb.ownerUrl, ['globex']);
  // The seed has neither invitations nor audit entries: give each organization one of both.
  await queryOnce(
    testDb.ownerUrl,
    `INSERT INTO invitations (organization_id, email, role_id, token_hash, expires_at)
       SELECT id, 'guest@example.test', (SELECT min(id) FROM roles), slug || '-token-hash', now() + interval '1 day' FROM organizations`,
  );
  await queryOnce(testDb.ownerUrl, "INSERT INTO audit_logs (organization_id, model, record_id, action) SELECT id, 'posts', '1', 'created' FROM organizations");
  analyst = await connect(acmeAnalyst.url);
});

afterAll(async () => {
  await analyst.end();
  await testDb.drop();
  await dropRoles(acmeAnalyst.role, globexAnalyst.role, revokedAnalyst.role);
});

describe('an analyst granted acme', () => {
  it('connects as itself, not as a privileged role', async () => {
    expect(await run('SELECT session_user::text AS s, current_user::text AS c')).toEqual([{ s: acmeAnalyst.role, c: acmeAnalyst.role }]);
  });

  it('sees the acme organization and its rows only', async () => {
    expect(await column('SELECT slug FROM organizations')).toEqual(['acme']);
    expect(await column('SELECT title FROM posts ORDER BY title')).toEqual(demoPostTitles('acme'));
    for (const table of ['comments', 'user_roles', 'org_role_permissions', 'invitations', 'audit_logs', 'posts']) {
      expect(await column(`SELECT DISTINCT organization_id FROM ${table}`), table).toEqual([acme]);
    }
  });

  it('sees the members of acme, never their password hashes or service-wide permissions', async () => {
    expect(await column('SELECT email FROM users ORDER BY email')).toEqual(demoMemberEmails('acme'));
    for (const statement of ['SELECT password_hash FROM public.users', 'SELECT * FROM public.users', 'SELECT permissions FROM public.users', 'SELECT token_hash FROM public.invitations']) {
      await expect(run(statement), statement).rejects.toThrow(/permission denied for table/);
    }
  });

  it('has no access to tables that belong to no tenant', async () => {
    for (const table of ['sessions', 'password_resets', 'mail_outbox', 'gatehouse_migrations', 'global_audit_logs']) {
      await expect(run(`SELECT count(*) FROM ${table}`), table).rejects.toThrow(/permission denied for table/);
    }
  });

  it('sees its own grants only', async () => {
    expect(await run('SELECT role_name, organization_id FROM analyst_grants')).toEqual([{ role_name: acmeAnalyst.role, organization_id: acme }]);
  });

  it('exports only acme with COPY', async () => {
    expect((await copyOut(analyst, 'COPY public.posts (title) TO STDOUT')).trim().split('\n').sort()).toEqual(demoPostTitles('acme'));
  });

  it('hides the planner statistics of the tables it reads', async () => {
    await queryOnce(testDb.ownerUrl, 'ANALYZE posts');
    expect(await run("SELECT attname FROM pg_stats WHERE tablename IN ('posts', 'organizations')")).toEqual([]);
  });
});

describe('an analyst trying to widen its view', () => {
  it('gains nothing from the service’s tenant settings', async () => {
    await run(`SELECT set_config('gatehouse.organization_id', '${globex}', false), set_config('gatehouse.invitation_token_hash', 'globex-token-hash', false)`);
    try {
      expect(await column('SELECT DISTINCT organization_id FROM posts')).toEqual([acme]);
      expect(await column('SELECT DISTINCT organization_id FROM invitations')).toEqual([acme]);
    } finally {
      await run('RESET ALL');
    }
  });

  it('cannot become the service, the owner or another analyst', async () => {
    for (const role of ['gatehouse_app', 'gatehouse_record_locator', 'postgres', globexAnalyst.role]) {
      await expect(run(`SET ROLE ${role}`), role).rejects.toThrow(/permission denied to set role/);
      await expect(run(`SELECT set_config('role', '${role}', false)`), role).rejects.toThrow(/permission denied to set role/);
    }
    await expect(run('SET SESSION AUTHORIZATION postgres')).rejects.toThrow(/permission denied to set session authorization/);
  });

  it('keeps its own grants after switching to the gatehouse_analyst group role', async () => {
    await run('SET ROLE gatehouse_analyst');
    try {
      expect(await column('SELECT slug FROM organizations')).toEqual(['acme']);
    } finally {
      await run('RESET ROLE');
    }
  });

  it('cannot create views, functions, tables or schemas that outlive its session', async () => {
    for (const statement of [
      'CREATE VIEW public.all_posts AS SELECT * FROM posts',
      'CREATE FUNCTION public.all_posts() RETURNS bigint LANGUAGE sql AS $$ SELECT count(*) FROM posts $$',
      'CREATE TABLE public.loot (title text)',
      'CREATE SCHEMA loot',
    ]) {
      await expect(run(statement), statement).rejects.toThrow(/permission denied/);
    }
  });

  it('sees through its own temporary view and SECURITY DEFINER function what it sees directly', async () => {
    await run('BEGIN');
    try {
      await run('CREATE TEMPORARY VIEW every_post AS SELECT title FROM posts');
      await run('CREATE FUNCTION pg_temp.post_count() RETURNS bigint LANGUAGE sql SECURITY DEFINER AS $$ SELECT count(*) FROM public.posts $$');
      expect((await column('SELECT title FROM every_post')).sort()).toEqual(demoPostTitles('acme'));
      expect(await column('SELECT pg_temp.post_count()::int')).toEqual([demoPostTitles('acme').length]);
    } finally {
      await run('ROLLBACK');
    }
  });

  it('never shows a function in its WHERE clause another organization’s rows', async () => {
    await run('BEGIN');
    try {
      expect(await titlesSeenByLeakyFunction(run)).toEqual(demoPostTitles('acme'));
    } finally {
      await run('ROLLBACK');
    }
  });

  it('cannot write anywhere, its own grants included', async () => {
    for (const statement of [
      `INSERT INTO analyst_grants (role_name, organization_id) VALUES (session_user, ${globex})`,
      `UPDATE analyst_grants SET organization_id = ${globex}`,
      'DELETE FROM analyst_grants',
      `INSERT INTO public.posts (organization_id, title) VALUES (${acme}, 'analyst was here')`,
      "UPDATE public.posts SET title = 'analyst was here'",
      'DELETE FROM public.comments',
      "UPDATE public.organizations SET name = 'analyst was here'",
      'TRUNCATE public.audit_logs',
      'COPY public.posts FROM STDIN',
      'SELECT id FROM public.posts FOR UPDATE',
      "UPDATE posts SET title = 'analyst was here'",
      'DELETE FROM analytics.comments',
      'ALTER TABLE posts DISABLE ROW LEVEL SECURITY',
      'CREATE POLICY everything ON posts FOR SELECT USING (true)',
      "ALTER ROLE gatehouse_analyst SET search_path = 'pg_temp'",
      `GRANT gatehouse_app TO ${acmeAnalyst.role}`,
    ]) {
      await expect(run(statement), statement).rejects.toThrow(/permission denied|must be owner/);
    }
    expect(await column('SELECT count(*)::int FROM analyst_grants')).toEqual([1]);
  });

  it('cannot store large objects, which would outlive its session', async () => {
    // PostgreSQL checks no privilege to create one: any login could store data of its own.
    for (const statement of ['SELECT lo_create(0)', 'SELECT lo_creat(-1)', "SELECT lo_from_bytea(0, 'analyst was here')"]) {
      await expect(run(statement), statement).rejects.toThrow(/permission denied for function/);
    }
    expect(await queryOnce(testDb.ownerUrl, 'SELECT count(*)::int AS n FROM pg_largeobject_metadata')).toEqual([{ n: 0 }]);
  });

  it('cannot take every connection slot the service needs', async () => {
    // Unlimited, one analyst opened connections until PostgreSQL refused every other login
    // ("remaining connection slots are reserved for roles with the SUPERUSER attribute").
    const sessions: pg.Client[] = [];
    try {
      while (sessions.length < ANALYST_CONNECTION_LIMIT) sessions.push(await connect(globexAnalyst.url));
      await expect(connect(globexAnalyst.url)).rejects.toThrow(`too many connections for role "${globexAnalyst.role}"`);
    } finally {
      await Promise.all(sessions.map((session) => session.end()));
    }
  });

  it('cannot call the service’s context functions', async () => {
    await expect(run('SELECT gatehouse_organization_id()')).rejects.toThrow(/permission denied for function/);
    // It would say which organization holds any record of any tenant table.
    await expect(run(`SELECT gatehouse_record_organization('posts', 1)`)).rejects.toThrow(/permission denied for function/);
  });
});

describe('grants per analyst', () => {
  it('each analyst sees exactly its own organizations', async () => {
    const other = await connect(globexAnalyst.url);
    try {
      expect((await other.query('SELECT slug FROM organizations')).rows).toEqual([{ slug: 'globex' }]);
      expect((await other.query('SELECT title FROM posts ORDER BY title')).rows.map((row) => row.title)).toEqual(demoPostTitles('globex'));
    } finally {
      await other.end();
    }
  });

  it('a revoked analyst sees nothing, on the connection it already has', async () => {
    const revoked = await connect(revokedAnalyst.url);
    try {
      expect(await revokeAnalystAccess(testDb.ownerUrl, revokedAnalyst.role, 'globex')).toBe(true);
      for (const table of ['organizations', 'posts', 'comments', 'users', 'user_roles', 'analyst_grants']) {
        expect((await revoked.query(`SELECT count(*)::int AS n FROM ${table}`)).rows, table).toEqual([{ n: 0 }]);
      }
      expect(await revokeAnalystAccess(testDb.ownerUrl, revokedAnalyst.role, 'globex')).toBe(false);
    } finally {
      await revoked.end();
    }
  });
});

describe('granting', () => {
  it('refuses roles that would reach past the analysts’ policies, and names it', async () => {
    const grant = (role: string, extra: { create?: boolean; password?: string } = {}) =>
      grantAnalystAccess(testDb.ownerUrl, { role, organizationSlug: 'acme', ...extra });
    await expect(grant('postgres')).rejects.toThrow('Refusing to use role "postgres": it bypasses row-level security.');
    await expect(grant('gatehouse_app')).rejects.toThrow(/not starting with pg_ or gatehouse_/);
    await expect(grant(uniqueRoleName('nobody'))).rejects.toThrow(/does not exist; pass --create to create it/);
    await expect(grant(acmeAnalyst.role, { create: true })).rejects.toThrow(/already exists/);
    await expect(grant(uniqueRoleName('weak'), { create: true, password: 'short' })).rejects.toThrow(/at least 12 printable ASCII/);
  });

  it('refuses a login that can already act as the service', async () => {
    const service = uniqueRoleName('service');
    await queryOnce(testDb.ownerUrl, `CREATE ROLE ${service} LOGIN IN ROLE gatehouse_app`);
    try {
      await expect(grantAnalystAccess(testDb.ownerUrl, { role: service, organizationSlug: 'acme' })).rejects.toThrow(
        `Refusing to use role "${service}": it is a member of gatehouse_app, and may only be one of gatehouse_analyst.`,
      );
    } finally {
      await dropRoles(service);
    }
  });
});
