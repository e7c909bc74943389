import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import demo from '../../policies/gatehouse.config.js';
import { ChangedMigrationError } from '../../server/db/migrations/changed-migration-error.js';
import { FailedMigrationError } from '../../server/db/migrations/failed-migration-error.js';
import { CORE_MIGRATIONS_DIR, migrate, readMigrations, type Migration } from '../../server/db/migrations/migrations.js';
import { MigrationsFolderError } from '../../server/db/migrations/migrations-folder-error.js';
import { migrate as exportedMigrate } from '../../server/index.js';
import { createEmptyDatabase, type TestDatabase } from '../support/database.js';
import { queryOnce } from '../support/query.js';

let testDb: TestDatabase;
let dir: string;

beforeEach(async () => {
  testDb = await createEmptyDatabase();
  dir = await mkdtemp(join(tmpdir(), 'gatehouse-migrations-'));
});

afterEach(async () => {
  await testDb.drop();
  await rm(dir, { recursive: true, force: true });
});

const write = (name: string, text: string) => writeFile(join(dir, name), text);
const recorded = async () =>
  (await queryOnce<{ name: string; checksum: string }>(testDb.ownerUrl, 'SELECT name, checksum FROM gatehouse_migrations ORDER BY name')).filter((row) =>
    row.name.startsWith('app/'),
  );
const notes = async () => (await queryOnce<{ body: string }>(testDb.ownerUrl, 'SELECT body FROM notes ORDER BY body')).map((row) => row.body);
const appOnly = (names: string[]) => names.filter((name) => name.startsWith('app/'));
const coreNames = async () => (await readMigrations()).map((migration) => migration.name);
const tables = async () =>
  (await queryOnce<{ name: string }>(testDb.ownerUrl, "SELECT relname::text AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' ORDER BY 1")).map(
    (row) => row.name,
  );

describe('migrate', () => {
  it('applies the core, then the application folder in name order, and records each with its checksum', async () => {
    await write('002_fill.sql', "INSERT INTO notes (body) VALUES ('second');");
    await write('001_create.sql', 'CREATE TABLE notes (body text);');
    await write('README.md', 'not a migration');

    expect(await migrate(testDb.ownerUrl, { dir })).toEqual([...(await coreNames()), 'app/001_create.sql', 'app/002_fill.sql']);
    expect(await notes()).toEqual(['second']);
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(await recorded()).toEqual([
      { name: 'app/001_create.sql', checksum: sha('CREATE TABLE notes (body text);') },
      { name: 'app/002_fill.sql', checksum: sha("INSERT INTO notes (body) VALUES ('second');") },
    ]);
  });

  it('without a folder applies the core only: no demo table', async () => {
    expect(await exportedMigrate(testDb.ownerUrl)).toEqual(await coreNames());
    const present = await tables();
    expect(present).toEqual(expect.arrayContaining(['organizations', 'users', 'roles', 'user_roles', 'org_role_permissions', 'audit_logs', 'analyst_grants']));
    expect(present).not.toContain('posts');
    expect(present).not.toContain('comments');
  });

  it('is idempotent: a second run applies nothing, a later file only itself', async () => {
    await write('001_create.sql', 'CREATE TABLE notes (body text);');
    await write('002_fill.sql', "INSERT INTO notes (body) VALUES ('once');");
    await migrate(testDb.ownerUrl, { dir });

    expect(await migrate(testDb.ownerUrl, { dir })).toEqual([]);
    await write('003_more.sql', "INSERT INTO notes (body) VALUES ('later');");
    expect(await migrate(testDb.ownerUrl, { dir })).toEqual(['app/003_more.sql']);
    expect(await notes()).toEqual(['later', 'once']);
  });

  it('refuses to run when an applied migration was changed, naming it, and applies nothing', async () => {
    await write('001_create.sql', 'CREATE TABLE notes (body text);');
    await migrate(testDb.ownerUrl, { dir });
    await write('001_create.sql', 'CREATE TABLE notes (body text, extra int);');
    await write('002_fill.sql', "INSERT INTO notes (body) VALUES ('never');");

    const run = migrate(testDb.ownerUrl, { dir });
    await expect(run).rejects.toBeInstanceOf(ChangedMigrationError);
    await expect(run).rejects.toThrow('Migration app/001_create.sql was changed after it was applied; add a new migration instead.');
    expect(await notes()).toEqual([]);
    expect((await recorded()).map((row) => row.name)).toEqual(['app/001_create.sql']);
  });

  it('rolls a failing migration back entirely, names it and does not record it', async () => {
    await write('001_create.sql', 'CREATE TABLE notes (body text);');
    await write('002_broken.sql', "INSERT INTO notes (body) VALUES ('half'); SELECT 1 / 0;");

    const run = migrate(testDb.ownerUrl, { dir });
    await expect(run).rejects.toBeInstanceOf(FailedMigrationError);
    await expect(run).rejects.toThrow('Migration app/002_broken.sql failed and was rolled back: division by zero');
    expect((await recorded()).map((row) => row.name)).toEqual(['app/001_create.sql']);
    expect(await notes()).toEqual([]);

    await write('002_broken.sql', "INSERT INTO notes (body) VALUES ('fixed');");
    expect(await migrate(testDb.ownerUrl, { dir })).toEqual(['app/002_broken.sql']);
    expect(await notes()).toEqual(['fixed']);
  });

  it('names a migration with a syntax error and leaves nothing of it', async () => {
    await write('001_typo.sql', 'CREATE TABLE half_done (id int); CREAT TABLE typo (id int);');
    await expect(migrate(testDb.ownerUrl, { dir })).rejects.toThrow('Migration app/001_typo.sql failed and was rolled back: syntax error at or near "CREAT"');
    expect(await tables()).not.toContain('half_done');
  });

  it('refuses a folder that is missing or holds a misnamed .sql file, before running anything', async () => {
    await expect(migrate(testDb.ownerUrl, { dir: join(dir, 'missing') })).rejects.toThrow(`The migrations folder ${join(dir, 'missing')} cannot be read.`);
    await write('create-notes.sql', 'CREATE TABLE notes (body text);');
    const run = migrate(testDb.ownerUrl, { dir });
    await expect(run).rejects.toBeInstanceOf(MigrationsFolderError);
    await expect(run).rejects.toThrow(`Migration ${join(dir, 'create-notes.sql')} must be named like 001_create_projects.sql.`);
    expect(await tables()).toEqual([]);
  });

  it('applies each migration once when two processes migrate at the same time', async () => {
    await write('001_create.sql', 'CREATE TABLE notes (body text);');
    await write('002_fill.sql', "INSERT INTO notes (body) VALUES ('one');");

    const runs = await Promise.all([migrate(testDb.ownerUrl, { dir }), migrate(testDb.ownerUrl, { dir })]);
    expect(appOnly(runs.flat()).sort()).toEqual(['app/001_create.sql', 'app/002_fill.sql']);
    expect(await notes()).toEqual(['one']);
  });
});

// What an earlier migrate() did with the given files, then `fill` on the same connection.
async function migrateAsBefore(migrations: Migration[], fill: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: testDb.ownerUrl });
  await client.connect();
  try {
    await client.query('CREATE TABLE gatehouse_migrations (name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    for (const migration of migrations) {
      await client.query(migration.sql);
      await client.query('INSERT INTO gatehouse_migrations (name, checksum) VALUES ($1, $2)', [migration.name, migration.checksum]);
    }
    await fill(client);
  } finally {
    await client.end();
  }
}

describe('a demo database migrated before the demo left the core', () => {
  const PRE_SPLIT = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'pre-split-core');

  const migrateBeforeSplit = async () =>
    migrateAsBefore(await readMigrations(PRE_SPLIT), async (client) => {
      const { rows } = await client.query<{ id: number }>("INSERT INTO organizations (name, slug) VALUES ('Acme', 'acme') RETURNING id");
      const post = await client.query<{ id: number }>("INSERT INTO posts (organization_id, title) VALUES ($1, 'kept') RETURNING id", [rows[0]?.id]);
      await client.query("INSERT INTO comments (post_id, body) VALUES ($1, 'kept too')", [post.rows[0]?.id]);
    });

  it('keeps working: the new core migration and the demo folder apply, its rows stay, comments still inherit', async () => {
    await migrateBeforeSplit();
    expect(await migrate(testDb.ownerUrl, { dir: demo.migrations })).toEqual(['006_rate_limits.sql', '007_tenant_tables.sql', '008_migration_status.sql', '009_open_request.sql', '010_owner_role.sql', '011_user_audit.sql', '012_analyst_columns.sql', '013_decision_logs.sql', '014_sliding_window_throttle.sql', '015_database_connect.sql', '016_mail_queue.sql', '017_audit_values.sql', '018_record_locator.sql', '019_session_write_position.sql', '020_decision_targets.sql', '021_service_resources.sql', '022_audit_infinite_instants.sql', '023_audit_infinite_dates_and_arrays.sql', '024_large_objects.sql', '025_global_audit_logs.sql', '026_claim_turns.sql', '027_analyst_connection_limit.sql', 'app/001_posts_and_comments.sql', 'app/002_posts_internal_notes.sql']);
    expect(await migrate(testDb.ownerUrl, { dir: demo.migrations })).toEqual([]);
    expect(await queryOnce(testDb.ownerUrl, 'SELECT p.title, c.body FROM posts p JOIN comments c ON c.post_id = p.id')).toEqual([{ title: 'kept', body: 'kept too' }]);
    const [globex] = await queryOnce<{ id: number }>(testDb.ownerUrl, "INSERT INTO organizations (name, slug) VALUES ('Globex', 'globex') RETURNING id");
    const id = globex?.id;
    const [post] = await queryOnce<{ id: number }>(testDb.ownerUrl, "INSERT INTO posts (organization_id, title) VALUES ($1, 'new') RETURNING id", [id]);
    const [comment] = await queryOnce<{ organization_id: number }>(testDb.ownerUrl, "INSERT INTO comments (post_id, body) VALUES ($1, 'x') RETURNING organization_id", [post?.id]);
    expect(comment?.organization_id).toBe(id);
    const triggers = await queryOnce<{ tgname: string }>(testDb.ownerUrl, "SELECT tgname::text FROM pg_trigger WHERE tgrelid = 'comments'::regclass AND NOT tgisinternal ORDER BY 1");
    expect(triggers.map((row) => row.tgname)).toEqual(['comments_inherit_organization', 'comments_touch']);
    expect(await queryOnce(testDb.ownerUrl, "SELECT FROM pg_proc WHERE proname = 'comments_inherit_organization'")).toEqual([]);
  });
});

describe('a database whose audit_logs held the trail of users (before 025)', () => {
  it('moves that trail to global_audit_logs, and every audit_logs row keeps its organization', async () => {
    await migrateAsBefore(
      (await readMigrations()).filter((migration) => migration.name < '025'),
      async (client) => {
        await client.query("INSERT INTO organizations (name, slug) VALUES ('Acme', 'acme')");
        await client.query("INSERT INTO users (name, email, password_hash) VALUES ('Ada', 'ada@example.test', 'x')");
        await client.query(`INSERT INTO audit_logs (organization_id, model, record_id, action, new_values, user_id) VALUES
          ((SELECT id FROM organizations), 'organizations', '1', 'created', NULL, NULL),
          (NULL, 'users', '1', 'updated', '{"name": "Ada"}', (SELECT id FROM users))`);
      },
    );
    expect(await migrate(testDb.ownerUrl)).toEqual(['025_global_audit_logs.sql', '026_claim_turns.sql', '027_analyst_connection_limit.sql']);
    expect(await queryOnce(testDb.ownerUrl, 'SELECT model, action FROM audit_logs')).toEqual([{ model: 'organizations', action: 'created' }]);
    expect(await queryOnce(testDb.ownerUrl, 'SELECT model, record_id, action, new_values, user_id FROM global_audit_logs')).toEqual([
      { model: 'users', record_id: '1', action: 'updated', new_values: { name: 'Ada' }, user_id: 1 },
    ]);
    await expect(queryOnce(testDb.ownerUrl, "INSERT INTO audit_logs (model, record_id, action) VALUES ('users', '1', 'updated')")).rejects.toThrow(/null value in column "organization_id"/);
  });
});

describe('the shipped migrations', () => {
  it('include every .sql file of sql/ and policies/migrations/, so a misnamed one cannot be skipped silently', async () => {
    for (const folder of [CORE_MIGRATIONS_DIR, demo.migrations ?? '']) {
      const files = (await readdir(folder)).filter((name) => name.endsWith('.sql')).sort();
      expect((await readMigrations(folder)).map((migration) => migration.name)).toEqual(files);
    }
  });
});
