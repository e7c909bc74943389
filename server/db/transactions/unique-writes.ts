import { sql } from 'kysely';
import type { Executor } from '../repositories/executor.js';

/** The tables whose unique values requests claim in turn. */
export type ClaimedTable = 'organizations' | 'users';

/**
 * Makes the transaction's writes of `table` take turns with every other writer's until it ends.
 * A request claiming a unique value (a slug, an email) takes its turn before it checks that the
 * value is free, so a racing request sees what the one before committed and is refused before
 * its insert draws an id from a sequence every tenant shares; it would otherwise draw one and
 * lose it to the conflict.
 *
 * A table lock, not an advisory one: any login may take an advisory lock (an analyst could hold a
 * slug's or an email's key and stall every creation of it), while SHARE ROW EXCLUSIVE needs the
 * right to change the table. Readers, and foreign keys checked against its rows, never wait.
 */
export async function takeTurnWriting(trx: Executor, table: ClaimedTable): Promise<void> {
  await sql`LOCK TABLE ${sql.table(table)} IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
}
