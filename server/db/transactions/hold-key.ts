import { sql } from 'kysely';
import type { Executor } from '../repositories/executor.js';

/**
 * Holds `key` of `namespace` until the transaction ends (an advisory lock). Requests that write
 * one unique value hold it before they check that it is free, so they check one after the other,
 * each seeing what the one before committed: a racing one is refused before its insert draws an id
 * from a sequence every tenant shares, where it would otherwise draw one and lose it to the
 * conflict. Two keys that hash alike only wait for each other.
 */
export async function holdKey(trx: Executor, namespace: string, key: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${namespace}), hashtext(${key}))`.execute(trx);
}
