import pg from 'pg';
import type { ApiResponse } from './http-client.js';
import type { TestServer } from './test-server.js';

/** Resolves once `condition` holds, asking again every 20 ms. */
export async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Holds requests the way a slow read holds them: their statements wait for a lock on `posts`. */
export interface PostsLock {
  /**
   * Sends `sent` while `posts` is locked, waits until each holds its pooled connection on the
   * lock, runs `meanwhile`, then lets them all finish: the statuses of `sent`, then of
   * `meanwhile`'s requests (answered while the others are held, or still waiting).
   */
  whileHeld(sent: (() => Promise<ApiResponse>)[], meanwhile: () => Promise<(ApiResponse | Promise<ApiResponse>)[]>): Promise<number[]>;
  end(): Promise<void>;
}

/** A connection of the database's owner that locks `posts` for a test's requests. */
export async function postsLock(server: TestServer): Promise<PostsLock> {
  const locker = new pg.Client({ connectionString: server.database.ownerUrl });
  await locker.connect();
  const heldOnLock = (count: number) =>
    until(async () => {
      const [row] = await server.sql<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [server.database.name]);
      return row!.n >= count;
    });
  return {
    async whileHeld(sent, meanwhile) {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE posts IN ACCESS EXCLUSIVE MODE');
      let requests: (ApiResponse | Promise<ApiResponse>)[] = [];
      try {
        requests = sent.map((send) => send());
        await heldOnLock(sent.length);
        requests.push(...(await meanwhile()));
      } finally {
        await locker.query('ROLLBACK');
      }
      return (await Promise.all(requests)).map((answer) => answer.status);
    },
    end: () => locker.end(),
  };
}
