import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { ConnectionLostError } from '../../errors/connection-lost-error.js';
import { OwnClient } from '../connection/own-client.js';
import { ChangedMigrationError } from './changed-migration-error.js';
import { FailedMigrationError } from './failed-migration-error.js';
import { inTransaction } from '../transactions/owner-transaction.js';
import { MigrationsFolderError } from './migrations-folder-error.js';
import { LockWaitWatch } from './lock-wait-watch.js';

/**
 * What every deployment needs: the core's own tables, roles, row-level security and helpers.
 * Three folders up from this module either way: from server/db/migrations/ in a checkout that
 * is the repository's sql/, from dist/db/migrations/ in the installed package the copy prepack puts in it.
 */
export const CORE_MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'sql');

/** Recorded names of an application's migrations start with this, so they never meet the core's. */
export const APP_MIGRATION_PREFIX = 'app/';

const MIGRATION_NAME = /^\d+_[a-z0-9_]+\.sql$/;

// The core's files as they were before the demo application moved out of them (they also
// created its tables). A database that applied them has everything the current files give, so
// their old checksums still count as applied; policies/migrations adopts the demo's tables.
const PRE_SPLIT_CHECKSUMS: Readonly<Record<string, string>> = {
  '002_schema.sql': '63220cc9db7aad3518b0aee49a67c6071816d421aa9769ce813ecb172ecd6cf3',
  '003_row_level_security.sql': '14e5d71325551abe7466d23a2b05525b779da758df0fd8927ad67a75178c5cc8',
  '004_hardening.sql': 'd703446b308443f368f7b8b567c8f86ba55a735c2718758876c8782d8b5a4830',
  '005_analyst_access.sql': '49a3956a7f5b6acd39d07c54639a93151adc3e7699483d2e281f8f116438b339',
};

export interface Migration {
  /** As recorded in gatehouse_migrations: the file name, `app/`-prefixed for the application's. */
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateOptions {
  /** The application's migrations folder, applied after the core's, in name order. */
  dir?: string;
  /**
   * How long a migration may wait for a lock another session holds before it is rolled back,
   * naming that session; default 10 s. Migrating processes wait for each other without limit.
   */
  lockTimeoutMs?: number;
}

export const DEFAULT_MIGRATION_LOCK_TIMEOUT_MS = 10_000;

async function sqlFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  } catch {
    throw new MigrationsFolderError(`The migrations folder ${dir} cannot be read.`);
  }
}

/** The migrations of one folder in name order; a `.sql` file named otherwise is refused, never skipped. */
export async function readMigrations(dir = CORE_MIGRATIONS_DIR, prefix = ''): Promise<Migration[]> {
  const names = await sqlFiles(dir);
  const misnamed = names.find((name) => !MIGRATION_NAME.test(name));
  if (misnamed) throw new MigrationsFolderError(`Migration ${join(dir, misnamed)} must be named like 001_create_projects.sql.`);
  return Promise.all(
    names.map(async (name) => {
      const text = await readFile(join(dir, name), 'utf8');
      return { name: prefix + name, sql: text, checksum: createHash('sha256').update(text).digest('hex') };
    }),
  );
}

/** The core's migrations, then the application's folder if any: the order they are applied in. */
export async function allMigrations(options: MigrateOptions = {}): Promise<Migration[]> {
  const core = await readMigrations();
  return options.dir ? [...core, ...(await readMigrations(options.dir, APP_MIGRATION_PREFIX))] : core;
}

function alreadyApplied(migration: Migration, checksum: string): boolean {
  if (checksum === migration.checksum || checksum === PRE_SPLIT_CHECKSUMS[migration.name]) return true;
  throw new ChangedMigrationError(migration.name);
}

// SQLSTATEs of a CREATE TABLE IF NOT EXISTS that lost a race with another process creating the
// same table: the table's name taken (42P07), or its row type's, which PostgreSQL reports as a
// unique violation in its catalog (23505) or, as 18 does, as `type "..." already exists` (42710).
const CREATED_MEANWHILE = new Set(['23505', '42P07', '42710']);

async function createMigrationsTable(client: pg.Client): Promise<void> {
  await client
    .query(
      `CREATE TABLE IF NOT EXISTS gatehouse_migrations (
        name text PRIMARY KEY,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
    )
    .catch((error: unknown) => {
      if (!CREATED_MEANWHILE.has((error as { code?: string }).code ?? '')) throw error;
    });
}

async function appliedChecksums(client: pg.Client, names?: string[]): Promise<Map<string, string>> {
  const { rows } = await client.query<{ name: string; checksum: string }>(
    'SELECT name, checksum FROM gatehouse_migrations WHERE $1::text[] IS NULL OR name = ANY($1)',
    [names ?? null],
  );
  return new Map(rows.map((row) => [row.name, row.checksum]));
}

/**
 * Applies one migration unless another process did meanwhile. Processes migrating at once take
 * turns on a lock of the migrations table itself: unlike an advisory lock, which any login may
 * take, this mode needs a write privilege on the table, which only its owner holds, so no
 * analyst or service login can hold migrations up.
 */
async function applyOnce(client: pg.Client, migration: Migration, watch: LockWaitWatch): Promise<boolean> {
  return inTransaction(client, async () => {
    await client.query('LOCK TABLE gatehouse_migrations IN SHARE ROW EXCLUSIVE MODE');
    const checksum = (await appliedChecksums(client, [migration.name])).get(migration.name);
    if (checksum !== undefined && alreadyApplied(migration, checksum)) return false;
    await watch.during(() => client.query(migration.sql));
    await client.query('INSERT INTO gatehouse_migrations (name, checksum) VALUES ($1, $2)', [migration.name, migration.checksum]);
    return true;
  }).catch((error: unknown) => {
    // A lost connection may have taken the COMMIT with it: whether the migration stayed is unknown.
    throw error instanceof ChangedMigrationError || error instanceof ConnectionLostError ? error : new FailedMigrationError(migration.name, error);
  });
}

/**
 * Applies pending migrations, the core's then the application's, each in its own transaction,
 * as the connecting (owner) role, one process at a time. A migration whose text changed after it
 * was applied stops the run before anything runs: the database would no longer match the files.
 * One that fails is rolled back and named.
 */
export async function migrate(ownerConnectionString: string, options: MigrateOptions = {}): Promise<string[]> {
  const migrations = await allMigrations(options);
  const client = new OwnClient({ connectionString: ownerConnectionString });
  await client.connect();
  const { rows: [backend] } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const watch = new LockWaitWatch(ownerConnectionString, backend!.pid, options.lockTimeoutMs ?? DEFAULT_MIGRATION_LOCK_TIMEOUT_MS);
  try {
    await createMigrationsTable(client);
    const applied = await appliedChecksums(client);
    const pending = migrations.filter((migration) => {
      const checksum = applied.get(migration.name);
      return checksum === undefined || !alreadyApplied(migration, checksum);
    });
    const ran: string[] = [];
    for (const migration of pending) if (await applyOnce(client, migration, watch)) ran.push(migration.name);
    return ran;
  } finally {
    await watch.close();
    await client.end();
  }
}
