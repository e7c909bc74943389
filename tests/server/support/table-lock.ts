import type pg from 'pg';
import type { ApiResponse } from './http-client.js';
import type { TestServer } from './test-server.js';

/** Runs fn while `table` is locked, in `locker`'s transaction, against every read: the server's statements that read it wait. */
export async function whileLocked<T>(locker: pg.Client, table: string, fn: () => Promise<T>): Promise<T> {
  await locker.query('BEGIN');
  await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  try {
    return await fn();
  } finally {
    await locker.query('ROLLBACK');
  }
}

/** The server's statements waiting for a lock: the requests that hold a pooled connection on it. */
export async function waitingOnLocks(server: TestServer): Promise<number> {
  const [row] = await server.sql<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [server.database.name]);
  return row!.n;
}

/** The answers in so far, filled in as they come. */
export function settled(answers: Promise<ApiResponse>[]): ApiResponse[] {
  const answered: ApiResponse[] = [];
  for (const answer of answers) void answer.then((response) => answered.push(response));
  return answered;
}
