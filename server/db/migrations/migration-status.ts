import { sql } from 'kysely';
import { DatabaseNotMigratedError } from '../../errors/database-not-migrated-error.js';
import { openDatabase } from '../connection/database.js';
import { allMigrations, type MigrateOptions } from './migrations.js';
import type { Executor } from '../repositories/executor.js';
import { isSchemaMissing } from './schema-missing.js';
import type { RequestDeadline } from '../transactions/request-deadline.js';
import { runWithinDeadline } from '../transactions/request-read.js';

async function appliedMigrations(db: Executor, deadline?: RequestDeadline): Promise<Set<string>> {
  try {
    const rows = await runWithinDeadline(db, sql<{ name: string }>`SELECT gatehouse_applied_migrations() AS name`.compile(db), deadline);
    return new Set(rows.map((row) => row.name));
  } catch (error) {
    // No function of 008, or no schema at all: nothing this check can see is applied.
    if (isSchemaMissing(error)) return new Set();
    throw error;
  }
}

/**
 * The migrations (the core's, then the application's folder if given) the database has not
 * applied yet, in the order they would run. Runs as gatehouse_app, through 008's function, and
 * within a request's deadline when given (`/api/ready`).
 */
export async function pendingMigrations(db: Executor, options: MigrateOptions = {}, deadline?: RequestDeadline): Promise<string[]> {
  const [expected, applied] = await Promise.all([allMigrations(options), appliedMigrations(db, deadline)]);
  return expected.map((migration) => migration.name).filter((name) => !applied.has(name));
}

/** Throws "database not migrated: run `gatehouse migrate`" while a migration is pending. */
export async function assertMigrated(connectionString: string, options: MigrateOptions = {}): Promise<void> {
  const database = openDatabase({ connectionString, maxConnections: 1 });
  try {
    if ((await pendingMigrations(database.db, options)).length > 0) throw new DatabaseNotMigratedError();
  } finally {
    await database.close();
  }
}
