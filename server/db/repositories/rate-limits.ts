import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { Executor } from './executor.js';
import type { RequestDeadline } from '../transactions/request-deadline.js';
import { runWithinDeadline } from '../transactions/request-read.js';

/** A counter's key: the SHA-256 of what it counts (an action and whom), never the values themselves. */
export const rateLimitKey = (...parts: string[]): string => createHash('sha256').update(parts.join('\n')).digest('hex');

export interface WindowCount {
  key: string;
  /** Whether the key's window already held its limit: the attempt was not admitted. */
  refused: boolean;
  /** Whole seconds until the oldest attempt leaves the window, at least 1. */
  retryAfter: number;
}

export interface SlidingWindow {
  key: string;
  windowSeconds: number;
  maxAttempts: number;
}

/** The time an attempt is counted at: the given one, else the database's (every instance agrees). */
const instant = (at: Date | undefined): RawBuilder<Date> => (at ? sql<Date>`${at.toISOString()}::timestamptz` : sql<Date>`now()`);

/**
 * Counts one attempt on each key in one statement: it is admitted, and its time kept, while
 * fewer than maxAttempts of the key's kept times fall within the windowSeconds that end with it.
 * Times that left the window are dropped on the way.
 */
export function countHits(db: Executor, windows: readonly SlidingWindow[], at?: Date, deadline?: RequestDeadline): Promise<WindowCount[]> {
  const now = instant(at);
  const count = sql<WindowCount>`
    INSERT INTO rate_limits AS r (key, attempts, window_seconds, max_attempts, expires_at)
    SELECT key, ARRAY[${now}], window_seconds, max_attempts, ${now} + make_interval(secs => window_seconds)
    FROM unnest(${windows.map((w) => w.key)}::text[], ${windows.map((w) => w.windowSeconds)}::integer[], ${windows.map((w) => w.maxAttempts)}::integer[])
      AS w(key, window_seconds, max_attempts)
    ON CONFLICT (key) DO UPDATE SET
      (attempts, refused) = (
        SELECT CASE WHEN count(*) < excluded.max_attempts THEN coalesce(array_agg(t ORDER BY t), '{}') || ${now} ELSE array_agg(t ORDER BY t) END,
          count(*) >= excluded.max_attempts
        FROM unnest(r.attempts) AS t
        WHERE t > ${now} - make_interval(secs => excluded.window_seconds)
      ),
      window_seconds = excluded.window_seconds,
      max_attempts = excluded.max_attempts,
      expires_at = greatest(r.expires_at, excluded.expires_at)
    RETURNING key, refused,
      greatest(1, ceil(extract(epoch FROM attempts[1] + make_interval(secs => window_seconds) - ${now})))::integer AS "retryAfter"`;
  return runWithinDeadline(db, count.compile(db), deadline);
}

/**
 * Clears one key's window and takes the newest attempt back from another's (a login that turned
 * out legitimate), in one statement. The keys differ, so the two never touch the same row.
 */
export async function forgetAndForgive(db: Executor, forgotten: string, forgiven: string, deadline?: RequestDeadline): Promise<void> {
  const statement = sql`
    WITH forgotten AS (DELETE FROM rate_limits WHERE key = ${forgotten})
    UPDATE rate_limits SET attempts = attempts[1:cardinality(attempts) - 1] WHERE key = ${forgiven}`;
  await runWithinDeadline(db, statement.compile(db), deadline);
}

/** Deletes the keys whose every attempt has left its window. */
export async function sweepEndedWindows(db: Executor, at?: Date, deadline?: RequestDeadline): Promise<void> {
  await runWithinDeadline(db, db.deleteFrom('rate_limits').where('expires_at', '<=', instant(at)).compile(), deadline);
}
