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
  /** Locks `posts`; the answer lets it go (sending the ROLLBACK at once, in the caller's turn). */
  take(): Promise<() => Promise<void>>;
  /** How many of the server's statements wait for the lock now: the held requests. */
  waiting(): Promise<number>;
  end(): Promise<void>;
}

/** A connection of the database's owner that locks `posts` for a test's requests. */
export async function postsLock(server: TestServer): Promise<PostsLock> {
  const locker = new pg.Client({ connectionString: server.database.ownerUrl });
  await locker.connect();
  const waiting = async () => {
    const [row] = await server.sql<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [server.database.name]);
    return row!.n;
  };
  const take = async () => {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE posts IN ACCESS EXCLUSIVE MODE');
    return async () => void (await locker.query('ROLLBACK'));
  };
  return {
    async whileHeld(sent, meanwhile) {
      const release = await take();
      let requests: (ApiResponse | Promise<ApiResponse>)[] = [];
      try {
        requests = sent.map((send) => send());
        await until(async () => (await waiting()) >= sent.length);
        requests.push(...(await meanwhile()));
      } finally {
        await release();
      }
      return (await Promise.all(requests)).map((answer) => answer.status);
    },
    take,
    waiting,
    end: () => locker.end(),
  };
}
