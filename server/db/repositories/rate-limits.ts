import { sql } from 'kysely';
import type { Executor } from './executor.js';

export interface WindowCount {
  key: string;
  hits: number;
  /** Whole seconds until the window ends, at least 1. */
  retryAfter: number;
}

/**
 * Counts one hit on each key in one statement, opening a new window of `decaySeconds` on a key
 * whose window has ended. The database's clock decides, so instances with drifting clocks agree.
 */
export async function countHits(db: Executor, windows: readonly { key: string; decaySeconds: number }[]): Promise<WindowCount[]> {
  const keys = windows.map((window) => window.key);
  const decays = windows.map((window) => window.decaySeconds);
  const { rows } = await sql<WindowCount>`
    INSERT INTO rate_limits AS r (key, hits, resets_at)
    SELECT key, 1, now() + make_interval(secs => decay)
    FROM unnest(${keys}::text[], ${decays}::integer[]) AS w(key, decay)
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN r.resets_at <= now() THEN 1 ELSE r.hits + 1 END,
      resets_at = CASE WHEN r.resets_at <= now() THEN excluded.resets_at ELSE r.resets_at END
    RETURNING key, hits, greatest(1, ceil(extract(epoch FROM r.resets_at - now())))::integer AS "retryAfter"`.execute(db);
  return rows;
}

/** Takes one hit back from a key (an attempt that turned out to be legitimate). */
export async function forgiveHit(db: Executor, key: string): Promise<void> {
  await db.updateTable('rate_limits').set({ hits: sql`greatest(hits - 1, 0)` }).where('key', '=', key).execute();
}

export async function forgetKey(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Deletes the windows that have ended; a later hit would have restarted them anyway. */
export async function sweepEndedWindows(db: Executor): Promise<void> {
  await db.deleteFrom('rate_limits').where('resets_at', '<=', sql<Date>`now()`).execute();
}
