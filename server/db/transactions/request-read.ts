import type { CompiledQuery, Kysely } from 'kysely';
import type { Schema } from '../schema.js';
import type { RequestDeadline } from './request-deadline.js';
import { inOpenedTransaction, tenantOpeningSql } from './tenant-transaction.js';
import { holdsConnection } from '../connection/connection-kysely.js';

/**
 * Runs one statement a request makes outside a tenant transaction (the lookup of the organization
 * its slug names, a sign-in's lookups, a session's start or end) within the request's deadline,
 * as every other statement it runs: in a transaction of its own whose opening sets the request's
 * statement_timeout, watching its client, who cancels the statement by leaving. The statement and
 * COMMIT travel with the opening (`read-ahead.ts`): one round trip, as the bare statement takes.
 * Without a deadline (the CLI, background work) it runs on `db` as it is, and so it does in a
 * transaction the caller already holds: that transaction's opening set what bounds it.
 */
export async function runWithinDeadline<Row, S = Schema>(db: Kysely<S>, statement: CompiledQuery<Row>, deadline: RequestDeadline | undefined): Promise<Row[]> {
  if (deadline === undefined || holdsConnection(db)) return (await db.executeQuery(statement)).rows;
  const opening = tenantOpeningSql({ organizationId: null, userId: null }, deadline);
  const ahead = { statements: [statement], complete: true };
  return inOpenedTransaction(db, opening, async (trx) => (await trx.executeQuery(statement)).rows, { ahead, caller: deadline.caller });
}
