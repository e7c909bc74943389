import { pendingMigrations } from '../db/migrations/migration-status.js';
import { ping } from '../db/repositories/ping.js';
import type { Executor } from '../db/repositories/executor.js';
import { DatabaseNotMigratedError } from '../errors/database-not-migrated-error.js';

/**
 * Ready to serve: the database answers and holds every migration of this version. A database
 * once seen migrated stays so for the life of the process (its migration files are fixed), so
 * later checks are a single round trip. Throws what the caller should be told.
 */
export function readinessCheck(db: Executor): () => Promise<void> {
  let migrated = false;
  return async () => {
    if (migrated) return ping(db);
    if ((await pendingMigrations(db)).length > 0) throw new DatabaseNotMigratedError();
    migrated = true;
  };
}
