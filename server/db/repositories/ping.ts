import { sql } from 'kysely';
import type { Executor } from './executor.js';
import type { RequestDeadline } from '../transactions/request-deadline.js';
import { runWithinDeadline } from '../transactions/request-read.js';

/** Round-trips to the database, within a request's deadline when given; throws when it cannot be reached. */
export async function ping(db: Executor, deadline?: RequestDeadline): Promise<void> {
  await runWithinDeadline(db, sql`SELECT 1`.compile(db), deadline);
}
