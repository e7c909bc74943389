import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrate, readMigrations } from '../../server/db/migrations/migrations.js';
import { generateTokenKeyPair } from '../../server/auth/token-keys.js';
import { runCli, startCli } from '../../harness/cli.js';
import { createAnalyst } from '../support/analyst.js';
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from '../support/database.js';
import { DEMO_PASSWORD, DEMO_USERS } from '../../policies/demo-accounts.js';
import { demoPostTitles } from '../support/demo.js';
import { queryOnce } from '../support/query.js';
import { dropRoles, uniqueRoleName } from '../support/roles.js';

// Each command is a Node process loading TypeScript: slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

// `npx gatehouse ...` as an operator runs it, pointed at a database by DATABASE_URL. Each test
// that changes a database gets one of its own, in the state it starts from; `untouched` is only
// ever read.
let untouched: TestDatabase;

beforeAll(async () => {
  untouched = await createEmptyDatabase();
});

afterAll(() => untouched.drop());

type Start = 'empty' | 'core' | 'seeded';

interface Scratch {
  db: TestDatabase;
  gatehouse: (...args: string[]) => ReturnType<typeof runCli>;
  /** Marks a cluster role the test makes, dropped after its database. */
  role(name: string): string;
}

/**
 * Runs `test` on a new database (empty, with the core migrations only, or the migrated demo),
 * then drops it and every role the test named.
 */
async function withDatabase(start: Start, test: (scratch: Scratch) => Promise<void>): Promise<void> {
  const db = start === 'seeded' ? await createTestDatabase() : await createEmptyDatabase();
  const roles: string[] = [];
  try {
    if (start === 'core') await migrate(db.ownerUrl);
    await test({ db, gatehouse: (...args) => runCli(args, db.ownerUrl), role: (name) => (roles.push(name), name) });
  } finally {
    await db.drop();
    await dropRoles(...roles);
  }
}

const gatehouse = (...args: string[]) => runCli(args, untouched.ownerUrl);

async function readAs(url: string, text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows.map((row: Record<string, unknown>) => Object.values(row)[0]);
  } finally {
    await client.end();
  }
}

const tableExists = async (db: TestDatabase, table: string) =>
  (await queryOnce<{ found: string | null }>(db.ownerUrl, 'SELECT to_regclass($1) AS found', [table]))[0]?.found !== null;

describe('gatehouse --help', () => {
  it('lists every command and exits 0', async () => {
    const run = await gatehouse('--help');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    for (const command of ['start', 'serve', 'migrate', 'seed', 'keygen', 'db', 'mail', 'analyst', 'app-login']) {
      expect(run.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
  });

  it("prints a command's help and runs nothing: no migration, no key", async () => {
    const migrateHelp = await gatehouse('migrate', '--help');
    expect(migrateHelp).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: gatehouse migrate') });
    expect(await tableExists(untouched, 'organizations')).toBe(false);
    const keygenHelp = await gatehouse('keygen', '--help');
    expect(keygenHelp).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: gatehouse keygen') });
    expect(keygenHelp.stdout).not.toContain('k4.secret');
    expect(await gatehouse('help', 'seed')).toMatchObject({ code: 0, stdout: expect.stringContaining('--demo') });
  });

  it('answers a wrong command or option with the usage and exit 2', async () => {
    // A --last past what a JavaScript number holds exactly is wrong too, not PostgreSQL's bigint error.
    const wrong = [['bogus'], [], ['migrate', '--bogus'], ['mail', '--last', 'many'], ['db'], ['mail', '--last', '99999999999999999999']];
    const runs = await Promise.all(wrong.map((args) => gatehouse(...args)));
    runs.forEach((run, index) => {
      expect(run.code, wrong[index]?.join(' ')).toBe(2);
      expect(run.stderr, wrong[index]?.join(' ')).toContain('Usage: gatehouse');
      expect(run.stderr).not.toMatch(/^\s+at /m);
    });
    expect(runs[0]?.stderr).toContain("unknown command 'bogus'");
    expect(runs[5]?.stderr).toContain(`error: option '--last <n>' argument '99999999999999999999' is invalid. a whole number from 1 to ${Number.MAX_SAFE_INTEGER}.`);
    expect(await tableExists(untouched, 'organizations')).toBe(false);
  });
});

describe('a database that is not migrated', () => {
  it('is named as such by the commands that read Gatehouse\'s tables, in one line, changing nothing', async () => {
    const commands = [
      ['user', 'list'],
      ['user', 'create', '--email', 'ada@example.test', '--name', 'Ada', '--password', 'long enough'],
      ['org', 'create', '--name', 'Acme', '--slug', 'acme'],
      ['member', 'list', '--org', 'acme'],
      ['decisions', '--org', 'acme'],
      ['resources', 'list'],
      ['analyst', 'list'],
      ['mail'],
    ];
    const runs = await Promise.all(commands.map((args) => gatehouse(...args)));
    runs.forEach((run, index) => {
      expect(run, commands[index]!.join(' ')).toEqual({ code: 1, stdout: '', stderr: 'database not migrated: run `npx gatehouse migrate`\n' });
    });
    expect(await tableExists(untouched, 'users')).toBe(false);
  });
});

describe('a DATABASE_URL whose login does not own the database', () => {
  it('is named as the fix, in one line, by the commands it cannot run', () =>
    withDatabase('seeded', async ({ db, role }) => {
      const analyst = await createAnalyst(db.ownerUrl, ['acme']);
      role(analyst.role);
      const runs = await Promise.all([['migrate'], ['org', 'list']].map((args) => runCli(args, analyst.url)));
      for (const run of runs) {
        expect(run).toMatchObject({ code: 1, stdout: '' });
        expect(run.stderr).toMatch(/^permission denied .+: DATABASE_URL must connect as the database's owner \(with CREATEROLE\) or a superuser\.\n$/);
      }
    }));
});

describe('gatehouse keygen --rotate', () => {
  it('refuses a key in use that is no key before printing a new one', async () => {
    const run = await runCli(['keygen', '--rotate'], untouched.ownerUrl, { GATEHOUSE_PASETO_SECRET_KEY: `k4.secret.${'A'.repeat(86)}` });
    expect(run).toEqual({ code: 1, stdout: '', stderr: 'The token signing key is not a valid PASERK k4.secret.\n' });
  });
});

describe('gatehouse migrate', () => {
  // Without a config in a checkout, the application is the demo that `npm start` serves there.
  it("applies the core's migrations, then the demo's in a checkout, to an empty database, then reports it up to date; seed seeds the demo", () =>
    withDatabase('empty', async ({ db: testDb, gatehouse }) => {
      const names = (await readMigrations()).map((migration) => migration.name);
      expect(await gatehouse('migrate')).toMatchObject({ code: 0, stdout: expect.stringMatching(new RegExp(`^Applied ${names.join(', ')}, app/\\d+_posts_and_comments\\.sql`)) });
      expect(await gatehouse('migrate')).toMatchObject({ code: 0, stdout: 'Database is up to date.\n' });
      expect(await queryOnce(testDb.ownerUrl, "SELECT to_regclass('posts')::text AS posts, to_regclass('comments')::text AS comments")).toEqual([{ posts: 'posts', comments: 'comments' }]);
      // And its seed is the demo's, as `seed --demo` runs it.
      expect(await gatehouse('seed')).toMatchObject({ code: 0, stdout: 'Seeded the demo data.\n' });
    }));

  it('applies an application folder with --dir, and names a migration that fails', () =>
    withDatabase('core', async ({ gatehouse }) => {
      const dir = await mkdtemp(join(tmpdir(), 'gatehouse-cli-'));
      try {
        await writeFile(join(dir, '001_notes.sql'), 'CREATE TABLE notes (body text);');
        expect(await gatehouse('migrate', '--dir', dir)).toMatchObject({ code: 0, stdout: 'Applied app/001_notes.sql\n' });
        await writeFile(join(dir, '002_typo.sql'), 'CREAT TABLE typo (id int);');
        expect(await gatehouse('migrate', '--dir', dir)).toEqual({
          code: 1,
          stdout: '',
          stderr: 'Migration app/002_typo.sql failed and was rolled back: syntax error at or near "CREAT"\n',
        });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }));
});

describe('gatehouse migrate --config', () => {
  // Node reports a rejection nothing handles by the end of the import as an uncaught error.
  it('refuses a config whose default export is a rejected promise in one line, exit 1, no stack trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gatehouse-cli-config-'));
    try {
      const path = join(dir, 'gatehouse.config.mjs');
      await writeFile(path, "export default Promise.reject(new Error('the vault is sealed'));");
      expect(await gatehouse('migrate', '--config', path)).toEqual({ code: 1, stdout: '', stderr: `Config file ${path} cannot be loaded: the vault is sealed\n` });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('applies the folder the config names, runs its seed, and refuses an unknown key in one line', () =>
    withDatabase('core', async ({ gatehouse }) => {
      const dir = await mkdtemp(join(tmpdir(), 'gatehouse-cli-config-'));
      try {
        await mkdir(join(dir, 'migrations'));
        await writeFile(join(dir, 'migrations', '003_more_notes.sql'), 'CREATE TABLE more_notes (body text);');
        await writeFile(join(dir, 'gatehouse.config.mjs'), "export default { migrations: './migrations' };");
        expect(await gatehouse('migrate', '--config', join(dir, 'gatehouse.config.mjs'))).toMatchObject({ code: 0, stdout: 'Applied app/003_more_notes.sql\n' });
        await writeFile(join(dir, 'broken.config.mjs'), "export default { migration: './migrations' };");
        expect(await gatehouse('migrate', '--config', join(dir, 'broken.config.mjs'))).toEqual({
          code: 1,
          stdout: '',
          stderr: `Config file ${join(dir, 'broken.config.mjs')}: unknown option migration.\n`,
        });
        // The seed is handed the owner's connection string and says whether it wrote anything.
        await writeFile(join(dir, 'seeding.config.mjs'), "export default { migrations: './migrations', seed: async (url) => url.startsWith('postgres') };");
        expect(await gatehouse('seed', '--config', join(dir, 'seeding.config.mjs'))).toMatchObject({ code: 0, stdout: 'Seeded.\n' });
        expect(await gatehouse('seed', '--config', join(dir, 'gatehouse.config.mjs'))).toMatchObject({ code: 2, stderr: expect.stringContaining('has no seed') });
        expect(await gatehouse('seed', '--demo', '--config', join(dir, 'seeding.config.mjs'))).toMatchObject({ code: 2, stderr: expect.stringContaining('exclude each other') });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }));
});

describe('gatehouse seed --demo', () => {
  it('seeds the demo organizations once', () =>
    withDatabase('core', async ({ db: testDb, gatehouse }) => {
      expect(await gatehouse('seed', '--demo')).toMatchObject({ code: 0, stdout: 'Seeded the demo data.\n' });
      expect(await gatehouse('seed', '--demo')).toMatchObject({ code: 0, stdout: 'Demo data already present.\n' });
      const slugs = await queryOnce<{ slug: string }>(testDb.ownerUrl, 'SELECT slug FROM organizations ORDER BY slug');
      expect(slugs).toEqual([{ slug: 'acme' }, { slug: 'globex' }]);
    }));
});

describe('gatehouse db url', () => {
  it('prints DATABASE_URL whole', async () => {
    expect(await gatehouse('db', 'url')).toEqual({ code: 0, stdout: `${untouched.ownerUrl}\n`, stderr: '' });
  });

  it('refuses an empty login name, which would print a URL naming no login at all', async () => {
    expect(await gatehouse('db', 'url', '--role', '')).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^error: option '--role <login>' argument '' is invalid\. a login name\.\n/) });
  });

  it('prints the URL of another login without any password (an analyst connects with their own)', async () => {
    const run = await gatehouse('db', 'url', '--role', 'acme_reader');
    const expected = new URL(untouched.ownerUrl);
    expected.username = 'acme_reader';
    expected.password = '';
    expect(run).toEqual({ code: 0, stdout: `${expected.toString()}\n`, stderr: '' });
  });
});

describe('gatehouse mail', () => {
  it('shows the newest messages of the outbox, oldest first', () =>
    withDatabase('seeded', async ({ db: testDb, gatehouse }) => {
      expect(await gatehouse('mail')).toMatchObject({ code: 0, stdout: 'The outbox is empty.\n' });
      for (const n of [1, 2, 3]) {
        await queryOnce(testDb.ownerUrl, 'INSERT INTO mail_outbox (recipient, subject, body) VALUES ($1, $2, $3)', [`r${n}@example.test`, `Subject ${n}`, `Body ${n}`]);
      }
      const run = await gatehouse('mail', '--last', '2');
      expect(run.code).toBe(0);
      expect(run.stdout).not.toContain('r1@example.test');
      expect(run.stdout).toMatch(/To: r2@example\.test\nSubject: Subject 2\n\nBody 2\n[\s\S]*To: r3@example\.test\nSubject: Subject 3\n\nBody 3\n/);
      expect((await gatehouse('mail')).stdout).toContain('To: r1@example.test');
    }));
});

describe('gatehouse start', () => {
  const logIn = (api: string, email: string, group = '') =>
    fetch(`${api}${group}/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: DEMO_PASSWORD }) });
  const signIn = async (api: string, email: string) => ((await (await logIn(api, email)).json()) as { token: string }).token;

  // In a home of its own: the service login's password file never lands in the checkout.
  it('migrates and seeds once, prints the demo logins and the database URL masked, keeps what was written across a restart; GATEHOUSE_MEMBERSHIP_ENFORCEMENT switches enforcement on', () =>
    withDatabase('empty', async ({ db: testDb }) => {
      const { secretKey } = await generateTokenKeyPair();
      const home = await mkdtemp(join(tmpdir(), 'gatehouse-home-'));
      const env = { DATABASE_URL: testDb.ownerUrl, PORT: '0', GATEHOUSE_PASETO_SECRET_KEY: secretKey, GATEHOUSE_HOME: home };
      const run = async (whileServing: (stdout: string, api: string) => Promise<void>, more: NodeJS.ProcessEnv = {}) => {
        const started = startCli(['start'], { ...env, ...more });
        try {
          const stdout = await started.waitFor(/^Database: .*$/m);
          await whileServing(stdout, /^Gatehouse demo on (\S+)$/m.exec(stdout)?.[1] ?? '');
        } finally {
          started.child.kill('SIGTERM');
          await started.exited;
        }
      };
      try {
        await run(async (stdout, api) => {
          expect(stdout).toContain('Seeded the demo data.');
          const shown = new URL(/^Database: (\S+)/m.exec(stdout)?.[1] ?? '');
          const real = new URL(testDb.ownerUrl);
          expect(real.password).not.toBe('');
          expect(shown).toMatchObject({ host: real.host, pathname: real.pathname, username: real.username, password: '****' });
          expect(stdout).not.toContain(real.password);

          // One aligned row per demo user: email, organization (or the admin group), role.
          const logins = stdout.split('Demo logins (password password123!):\n')[1]?.split('\n\n')[0]?.split('\n') ?? [];
          expect(logins.map((line) => line.trim().split(/\s+/))).toEqual(
            DEMO_USERS.map((user) => [user.email, ...(user.organization ?? 'admin group').split(' '), user.role]),
          );
          expect(new Set(logins.map((line) => /^\s*\S+\s+/.exec(line)?.[0].length)).size).toBe(1);

          const created = await fetch(`${api}/acme/posts`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await signIn(api, 'editor@acme.test')}` },
            body: JSON.stringify({ title: 'Written before the restart' }),
          });
          expect(created.status).toBe(201);
          // Membership enforcement is off in the demo: a tenant member signs in to the admin group.
          expect((await logIn(api, 'editor@acme.test', '/admin')).status).toBe(200);
        });
        await run(async (stdout, api) => {
          expect(stdout).not.toContain('Seeded');
          const posts = await fetch(`${api}/acme/posts?sort=title&per_page=100`, { headers: { Authorization: `Bearer ${await signIn(api, 'editor@acme.test')}` } });
          const titles = ((await posts.json()) as { data: { title: string }[] }).data.map((post) => post.title);
          expect(titles).toEqual([...demoPostTitles('acme'), 'Written before the restart'].sort());
          const refused = await logIn(api, 'editor@acme.test', '/admin');
          expect({ status: refused.status, body: await refused.json() }).toMatchObject({ status: 403, body: { message: 'You are not a member of this group' } });
        }, { GATEHOUSE_MEMBERSHIP_ENFORCEMENT: 'true' });
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    }));
});

describe('gatehouse analyst', () => {
  it('grant --create makes a login that reads the granted organization with the password printed once', () =>
    withDatabase('seeded', async ({ gatehouse, role }) => {
      const analystRole = role(uniqueRoleName('analyst'));
      const run = await gatehouse('analyst', 'grant', analystRole, 'acme', '--create');
      expect(run.code).toBe(0);
      const url = /Connect with: psql "(.+)"/.exec(run.stdout)?.[1] ?? '';
      const password = /Password \(shown once\): (\S+)/.exec(run.stdout)?.[1] ?? '';
      expect(new URL(url)).toMatchObject({ username: analystRole, password });
      expect(await readAs(url, 'SELECT title FROM posts ORDER BY title')).toEqual(demoPostTitles('acme'));

      expect(await gatehouse('analyst', 'grant', analystRole, 'globex')).toMatchObject({ code: 0, stdout: expect.stringContaining(`${analystRole} can read organization globex.`) });
      expect(await readAs(url, 'SELECT slug FROM organizations ORDER BY slug')).toEqual(['acme', 'globex']);

      expect(await gatehouse('analyst', 'revoke', analystRole, 'globex')).toMatchObject({ code: 0, stdout: `Revoked ${analystRole}'s access to globex.\n` });
      expect(await readAs(url, 'SELECT slug FROM organizations')).toEqual(['acme']);
    }));

  it('explains what it refuses: exit 1 for the database, 2 for the command line', () =>
    withDatabase('seeded', async ({ gatehouse }) => {
      const analystRole = uniqueRoleName('analyst');
      expect(await gatehouse('analyst', 'grant', analystRole, 'initech')).toMatchObject({ code: 1, stderr: 'No organization has the slug "initech".\n' });
      const usage = await gatehouse('analyst', 'grant', analystRole, 'acme', '--password', 'without-create-123');
      expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: gatehouse analyst grant --role <role> --org <slug> [--create [--password <password>]]') });
      // A name no grant could have been made for is refused, not reported as having had no access.
      for (const role of ['', 'Bad Role']) {
        expect(await gatehouse('analyst', 'revoke', '--role', role, '--org', 'acme')).toEqual({
          code: 1,
          stdout: '',
          stderr: `Refusing to use role "${role}": use lower-case letters, digits and underscores, not starting with pg_ or gatehouse_.\n`,
        });
      }
    }));
});

describe('gatehouse app-login', () => {
  it('creates a service login and prints its connection string', () =>
    withDatabase('seeded', async ({ gatehouse, role }) => {
      const serviceRole = role(uniqueRoleName('service'));
      const run = await gatehouse('app-login', serviceRole);
      expect(run.code).toBe(0);
      const url = /Service connection string: (\S+)/.exec(run.stdout)?.[1] ?? '';
      expect(await readAs(url, "SELECT pg_has_role('gatehouse_app', 'MEMBER')")).toEqual([true]);
    }));
});
