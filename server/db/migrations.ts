import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { ChangedMigrationError } from './changed-migration-error.js';
import { inTransaction } from './in-transaction.js';

// sql/ sits at the package root; found through the package itself because this module runs from
// server/db/ in a checkout and from dist/server/db/ once built.
export const MIGRATIONS_DIR = join(dirname(createRequire(import.meta.url).resolve('gatehouse/package.json')), 'sql');

// Any fixed number works; it only has to be the same for every process migrating this database.
const MIGRATION_LOCK_KEY = 7_204_118;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const names = (await readdir(dir)).filter((name) => /^\d+_[a-z0-9_]+\.sql$/.test(name)).sort();
  return Promise.all(
    names.map(async (name) => {
      const text = await readFile(join(dir, name), 'utf8');
      return { name, sql: text, checksum: createHash('sha256').update(text).digest('hex') };
    }),
  );
}

/**
 * Applies pending migrations in name order, each in its own transaction, as the connecting
 * (owner) role. A migration whose text changed after it was applied stops the run: the database
 * would no longer match the files.
 */
export async function migrate(ownerConnectionString: string, dir = MIGRATIONS_DIR): Promise<string[]> {
  const client = new pg.Client({ connectionString: ownerConnectionString });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS gatehouse_migrations (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const applied = new Map(
      (await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM gatehouse_migrations')).rows.map(
        (row) => [row.name, row.checksum],
      ),
    );
    const ran: string[] = [];
    for (const migration of await readMigrations(dir)) {
      const checksum = applied.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) throw new ChangedMigrationError(migration.name);
        continue;
      }
      await inTransaction(client, async () => {
        await client.query(migration.sql);
        await client.query('INSERT INTO gatehouse_migrations (name, checksum) VALUES ($1, $2)', [
          migration.name,
          migration.checksum,
        ]);
      });
      ran.push(migration.name);
    }
    return ran;
  } finally {
    await client.end();
  }
}
