import { pendingMigrations } from '../db/migrations/migration-status.js';
import { ping } from '../db/repositories/ping.js';
import type { Executor } from '../db/repositories/executor.js';
import { DatabaseNotMigratedError } from '../errors/database-not-migrated-error.js';
import type { RequestDeadline } from '../db/transactions/request-deadline.js';
import { CallerPresence } from '../db/connection/caller-presence.js';

/**
 * Ready to serve: the database answers and holds every migration of this version. A database
 * once seen migrated stays so for the life of the process (its migration files are fixed), so
 * later checks are a single round trip. Throws what the caller should be told. Asked by a request
 * (`/api/ready`), its statements run within the request's deadline, as every request's do.
 */
export function readinessCheck(db: Executor): (deadline?: RequestDeadline) => Promise<void> {
  let migrated = false;
  return async (deadline) => {
    if (migrated) return ping(db, deadline);
    if ((await pendingMigrations(db, {}, deadline)).length > 0) throw new DatabaseNotMigratedError();
    migrated = true;
  };
}

/**
 * Probes asking at once share one check: `/api/ready` answers anyone, and a flood of it must hold
 * one pooled connection, not the pool every tenant's requests need. The shared check keeps the
 * asking request's statement timeout but a caller of its own, so one prober leaving cancels no
 * other prober's answer.
 */
export function sharedCheck(check: (deadline: RequestDeadline) => Promise<void>): (deadline: RequestDeadline) => Promise<void> {
  let running: Promise<void> | undefined;
  return (deadline) => {
    running ??= check({ statementTimeoutMs: deadline.statementTimeoutMs, caller: new CallerPresence() }).finally(() => {
      running = undefined;
    });
    return running;
  };
}
