import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import demo from '../../policies/gatehouse.config.js';
import { seedDemo } from '../../policies/seed.js';
import { createProgram } from '../../server/cli/program.js';
import { migrate } from '../../server/db/migrations/migrations.js';
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from '../support/database.js';
import { queryOnce } from '../support/query.js';
import { dropRoles, uniqueRoleName } from '../support/roles.js';

// `gatehouse db verify` in-process against the migrated, seeded demo database, then against a
// table whose row-level security was left open; neither run may change anything.
let demoDb: TestDatabase;
let brokenDb: TestDatabase;
let leakyDb: TestDatabase;

async function dbVerify(database: TestDatabase | string, ...args: string[]): Promise<{ lines: string[]; error: Error | null }> {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
  vi.stubEnv('DATABASE_URL', typeof database === 'string' ? database : database.ownerUrl);
  try {
    await createProgram().parseAsync(['db', 'verify', ...args], { from: 'user' });
    return { lines, error: null };
  } catch (error) {
    return { lines, error: error as Error };
  } finally {
    log.mockRestore();
    vi.unstubAllEnvs();
  }
}

/**
 * Everything verify could change: each table's rows (by checksum), each sequence's position, the
 * roles of the cluster and the analyst grants.
 */
async function snapshot(database: TestDatabase): Promise<Record<string, unknown>> {
  const tables = await queryOnce<{ name: string }>(
    database.ownerUrl,
    "SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname IN ('public', 'gatehouse') ORDER BY 1",
  );
  const state: Record<string, unknown> = {};
  for (const { name } of tables) {
    state[name] = (await queryOnce(database.ownerUrl, `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS sum FROM ${name} t`))[0];
  }
  state.sequences = await queryOnce(database.ownerUrl, 'SELECT sequencename, last_value FROM pg_sequences ORDER BY 1');
  state.roles = await queryOnce(database.ownerUrl, 'SELECT rolname FROM pg_roles ORDER BY 1');
  return state;
}

beforeAll(async () => {
  [demoDb, brokenDb, leakyDb] = await Promise.all([createTestDatabase(), createTestDatabase(), createTestDatabase()]);
  // The seed writes no invitations, audit entries or stored refusals: one of each per
  // organization, so no tenant table is skipped.
  await queryOnce(
    demoDb.ownerUrl,
    `INSERT INTO invitations (organization_id, email, role_id, token_hash, expires_at)
       SELECT id, 'guest@example.test', (SELECT min(id) FROM roles), slug || '-token-hash', now() + interval '1 day' FROM organizations;
     INSERT INTO audit_logs (organization_id, model, record_id, action) SELECT id, 'posts', '1', 'created' FROM organizations;
     INSERT INTO decision_logs (organization_id, request_id, method, route, status, gate, permission)
       SELECT id, slug || '-request', 'DELETE', '/api/:organization/:model/:id', 403, 'policy', 'posts.destroy' FROM organizations;`,
  );
  // An application table made a tenant table, then opened up by hand: not forced, a service
  // policy that lets every tenant through, analysts reading every organization and writing; and
  // a hidden column of posts granted to analysts.
  await queryOnce(
    brokenDb.ownerUrl,
    `CREATE TABLE notes (id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, organization_id integer NOT NULL REFERENCES organizations, body text);
     SELECT gatehouse.enable_tenant_table('notes');
     ALTER TABLE notes NO FORCE ROW LEVEL SECURITY;
     DROP POLICY app_tenant ON notes;
     CREATE POLICY app_tenant ON notes FOR ALL TO gatehouse_app USING (true) WITH CHECK (true);
     CREATE POLICY analyst_everything ON notes FOR SELECT TO gatehouse_analyst USING (true);
     GRANT INSERT ON notes TO gatehouse_analyst;
     GRANT SELECT (internal_notes) ON posts TO gatehouse_analyst;
     INSERT INTO notes (organization_id, body) SELECT id, slug FROM organizations;`,
  );

  // The mistake verify exists to find: tables with rows of two organizations that the service
  // reads and no row-level security, one of them outside the public schema; and a tenant table
  // only one organization has rows in, where isolation has nothing to prove.
  await queryOnce(
    leakyDb.ownerUrl,
    `CREATE TABLE leaky (id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, organization_id integer NOT NULL, total integer);
     GRANT SELECT ON leaky TO gatehouse_app;
     INSERT INTO leaky (organization_id, total) SELECT id, 1 FROM organizations;
     CREATE TABLE analytics.ledger (id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, organization_id integer NOT NULL, total integer);
     GRANT USAGE ON SCHEMA analytics TO gatehouse_app;
     GRANT SELECT ON analytics.ledger TO gatehouse_app;
     INSERT INTO analytics.ledger (organization_id, total) SELECT id, 2 FROM organizations;
     CREATE TABLE lonely (id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, organization_id integer NOT NULL REFERENCES organizations, body text);
     SELECT gatehouse.enable_tenant_table('lonely');
     INSERT INTO lonely (organization_id, body) SELECT min(id), 'alone' FROM organizations;`,
  );
});

afterAll(async () => {
  await Promise.all([demoDb.drop(), brokenDb.drop(), leakyDb.drop()]);
});

describe('gatehouse db verify', () => {
  it('proves the record gate of every demo tenant table, one line per table and check, and changes nothing', async () => {
    const before = await snapshot(demoDb);
    const { lines, error } = await dbVerify(demoDb);
    expect(error).toBeNull();
    expect(await snapshot(demoDb)).toEqual(before);
    const checked = (table: string) => lines.filter((line) => line.split(/\s+/)[1] === table).map((line) => line.split(':')[0]!.split(/\s+/).slice(2).join(' '));
    for (const table of ['posts', 'comments', 'audit_logs', 'invitations', 'org_role_permissions', 'user_roles']) expect(lines.some((line) => line.includes(` ${table} `)), table).toBe(true);
    expect(checked('posts')).toEqual(['rls', 'isolation', 'no context', 'insert into another', 'move into another', 'analyst reads', 'analyst writes', 'analyst hidden columns']);
    expect(lines.filter((line) => !line.startsWith('ok'))).toEqual([]);
    expect(lines).toContainEqual(expect.stringMatching(/^ok {3}posts +analyst hidden columns: an analyst cannot read internal_notes$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ok {3}comments +insert into another: .* (is refused|does not land there)$/));
  });

  it('answers JSON with --json', async () => {
    const { lines, error } = await dbVerify(demoDb, '--json');
    expect(error).toBeNull();
    const { checks } = JSON.parse(lines.join('\n')) as { checks: { table: string; check: string; status: string }[] };
    expect(checks).toContainEqual({ table: 'posts', check: 'rls', status: 'ok', detail: 'row-level security enabled and forced' });
  });

  it('runs the analyst checks as an owner that is no superuser, and leaves it no membership', async () => {
    // A deployment's owner: it migrated and seeded the database, and may grant the group roles
    // (as their creator may), but is no superuser and cannot change its session user.
    const owner = uniqueRoleName('verify_owner');
    const database = await createEmptyDatabase();
    const ownerUrl = new URL(database.ownerUrl);
    try {
      await queryOnce(
        database.ownerUrl,
        `CREATE ROLE ${owner} LOGIN CREATEROLE PASSWORD 'owner-password';
         GRANT gatehouse_app, gatehouse_analyst, gatehouse_record_locator TO ${owner} WITH ADMIN TRUE, INHERIT FALSE, SET FALSE;
         ALTER DATABASE ${database.name} OWNER TO ${owner};`,
      );
      Object.assign(ownerUrl, { username: owner, password: 'owner-password' });
      await migrate(ownerUrl.href, { dir: demo.migrations });
      await seedDemo(ownerUrl.href);
      const memberships = () => queryOnce(database.ownerUrl, 'SELECT roleid::regrole::text AS role, set_option FROM pg_auth_members WHERE member = $1::regrole ORDER BY 1, 2', [owner]);
      const before = [await snapshot(database), await memberships()];
      const { lines, error } = await dbVerify(ownerUrl.href);
      expect(error).toBeNull();
      expect([await snapshot(database), await memberships()]).toEqual(before);
      expect(lines.filter((line) => line.split(/\s+/)[1] === 'posts' && line.includes('analyst'))).toEqual([
        expect.stringMatching(/^ok {3}posts +analyst reads: an analyst granted organization \d+ reads [1-9]\d* of its \d+ row\(s\) and 0 of others/),
        expect.stringMatching(/^ok {3}posts +analyst writes: an analyst cannot write$/),
        expect.stringMatching(/^ok {3}posts +analyst hidden columns: an analyst cannot read internal_notes$/),
      ]);
      // The seed writes no invitations, audit entries or stored refusals: those tables are
      // skipped for want of rows, none for want of a superuser.
      expect(lines.filter((line) => line.startsWith('fail') || line.includes('acting as an analyst'))).toEqual([]);

      // An owner that may not grant gatehouse_analyst: the analyst checks are skipped, said so.
      await queryOnce(database.ownerUrl, `REVOKE gatehouse_analyst FROM ${owner}`);
      const { lines: without, error: failure } = await dbVerify(ownerUrl.href);
      expect(failure).toBeNull();
      expect(without.filter((line) => line.split(/\s+/)[1] === 'posts' && line.includes('analyst'))).toEqual([
        expect.stringMatching(/^skip posts +analyst: acting as an analyst needs a superuser, or an owner that may grant gatehouse_analyst/),
      ]);
    } finally {
      await database.drop();
      await dropRoles(owner);
    }
  });

  it('refuses a database that is not migrated, in one line', async () => {
    const empty = await createEmptyDatabase();
    try {
      const { lines, error } = await dbVerify(empty);
      expect(lines).toEqual([]);
      expect(error?.message).toBe('database not migrated: run `npx gatehouse migrate`');
    } finally {
      await empty.drop();
    }
  });

  it('names every check an opened-up table fails, exits 1, and still changes nothing', async () => {
    const before = await snapshot(brokenDb);
    const { lines, error } = await dbVerify(brokenDb);
    expect(error?.message).toBe('8 check(s) failed: the record gate does not hold on this database.');
    expect(await snapshot(brokenDb)).toEqual(before);
    expect(lines.filter((line) => line.startsWith('fail'))).toEqual([
      expect.stringMatching(/^fail notes +rls: row-level security enabled but not forced; fix: ALTER TABLE public\.notes FORCE ROW LEVEL SECURITY$/),
      expect.stringMatching(/^fail notes +isolation: organization \d+ sees 1 row\(s\) of other organizations; organization \d+ has 1$/),
      expect.stringMatching(/^fail notes +no context: no tenant context sees 2 organization row\(s\)$/),
      expect.stringMatching(/^fail notes +insert into another: a copy of an organization \d+ row into organization \d+ succeeds$/),
      expect.stringMatching(/^fail notes +move into another: moving an organization \d+ row into organization \d+ succeeds$/),
      expect.stringMatching(/^fail notes +analyst reads: an analyst granted organization \d+ reads 1 of its 1 row\(s\) and 1 of others \(through analytics\.notes\)$/),
      expect.stringMatching(/^fail notes +analyst writes: an analyst may run: INSERT INTO public\.notes /),
      expect.stringMatching(/^fail posts +analyst hidden columns: an analyst reads SELECT "internal_notes" FROM public\.posts LIMIT 0$/),
    ]);
  });

  it('reports a table without row-level security as a failure naming it and the fix, in any schema, without crashing', async () => {
    const before = await snapshot(leakyDb);
    const { lines, error } = await dbVerify(leakyDb);
    expect(error?.message).toMatch(/^\d+ check\(s\) failed: the record gate does not hold on this database\.$/);
    expect(await snapshot(leakyDb)).toEqual(before);
    for (const table of ['leaky', 'analytics.ledger']) {
      const name = table.includes('.') ? table : `public.${table}`;
      expect(lines).toContainEqual(
        `fail ${table.padEnd(Math.max(...lines.map((line) => line.split(/\s+/)[1]!.length)))} rls: row-level security not enabled; fix: ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY; CREATE POLICY app_tenant ON ${name} FOR ALL TO gatehouse_app USING (organization_id = gatehouse_organization_id()) WITH CHECK (organization_id = gatehouse_organization_id())`,
      );
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^fail ${table.replace('.', '\\.')} +isolation: organization \\d+ sees 1 row\\(s\\) of other organizations`)));
    }
    const json = await dbVerify(leakyDb, '--json');
    const { checks } = JSON.parse(json.lines.join('\n')) as { checks: { table: string; check: string; status: string; detail: string }[] };
    expect(checks.filter((check) => check.check === 'rls' && check.status === 'fail').map((check) => check.table)).toEqual(['analytics.ledger', 'leaky']);
    expect(json.error?.message).toBe(error?.message);
  });

  it('says "not tested" where the other organizations have no rows to keep apart', async () => {
    const { lines } = await dbVerify(leakyDb);
    expect(lines).toContainEqual(expect.stringMatching(/^skip lonely +isolation: not tested: organization \d+ sees its 1 row\(s\), and no other organization has a row to keep from it$/));
    expect(lines.filter((line) => line.split(/\s+/)[1] === 'lonely' && line.startsWith('ok')).map((line) => line.split(':')[0]!.split(/\s+/).slice(2).join(' '))).not.toContain('isolation');
    // A tenant table without a row in any organization: nothing was tested, and it says so.
    expect(lines).toContainEqual(expect.stringMatching(/^skip invitations +isolation: not tested: no organization has a row in it$/));
    expect(lines.filter((line) => line.split(/\s+/)[1] === 'invitations' && line.startsWith('ok')).map((line) => line.split(':')[0]!.split(/\s+/).slice(2).join(' '))).toEqual(['rls']);
  });
});
