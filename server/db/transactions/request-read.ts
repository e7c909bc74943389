import type { CompiledQuery, Kysely } from 'kysely';
import type { Schema } from '../schema.js';
import type { RequestDeadline } from './request-deadline.js';
import { inOpenedTransaction, tenantOpeningSql } from './tenant-transaction.js';

/**
 * Runs one read a request makes before it knows its tenant (the lookup of the organization its
 * slug names) within the request's deadline, as every other statement it runs: in a transaction
 * of its own whose opening sets the request's statement_timeout, watching its client, who cancels
 * the read by leaving. The read and COMMIT travel with the opening (`read-ahead.ts`): one round
 * trip, as the bare read takes.
 */
export function readWithinDeadline<Row>(db: Kysely<Schema>, read: CompiledQuery<Row>, deadline: RequestDeadline): Promise<Row[]> {
  const opening = tenantOpeningSql({ organizationId: null, userId: null }, deadline);
  const ahead = { statements: [read], complete: true };
  return inOpenedTransaction(db, opening, async (trx) => (await trx.executeQuery(read)).rows, { ahead, caller: deadline.caller });
}
