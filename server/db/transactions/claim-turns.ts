import { sql } from 'kysely';
import type { Executor } from '../repositories/executor.js';

/** The values unique across every tenant that requests claim in turn (`sql/026_claim_turns.sql`). */
export type ClaimedValue = 'organizations.slug' | 'users.email';

/**
 * Holds the turn of `claim` until the transaction ends. A request claiming such a value takes its
 * turn before it checks that the value is free, so a racing request sees what the one before
 * committed and is refused before its insert draws an id from a sequence every tenant shares; it
 * would otherwise draw one and lose it to the conflict. The turn is a row only the service may
 * lock (an advisory key could be held by any login), and nothing else waits on it.
 */
export async function takeTurn(trx: Executor, claim: ClaimedValue): Promise<void> {
  // An upsert rather than SELECT ... FOR UPDATE: it locks the row even where it went missing.
  await sql`INSERT INTO claim_turns (name) VALUES (${claim}) ON CONFLICT (name) DO UPDATE SET name = excluded.name`.execute(trx);
}
