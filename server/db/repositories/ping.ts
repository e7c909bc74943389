import { sql } from 'kysely';
import type { Executor } from './executor.js';

/** Round-trips to the database; throws when it cannot be reached. */
export async function ping(db: Executor): Promise<void> {
  await sql`SELECT 1`.execute(db);
}
