import type { CompiledQuery } from 'kysely';
import { sendLastReads, StatementAfterCommitError } from '../db/transactions/read-ahead.js';
import { tenantOpeningSql } from '../db/transactions/tenant-transaction.js';
import type { DataActionContext } from './data-action-context.js';

/**
 * A read's last statements once it knows them: those sent ahead are read as they come, the others
 * go with COMMIT, in a transaction of their own under the same tenant context when the COMMIT of
 * this one is on its way without them (its read-ahead guessed other statements).
 */
export function sendReadsLast(context: DataActionContext, statements: readonly CompiledQuery[]): Promise<void> {
  const { organizationId, userId } = context.scope;
  return sendLastReads(context.trx, statements, tenantOpeningSql({ organizationId, userId }, context.deadline));
}

/**
 * The rows of `statement`, the first of a read's last statements (`others` the rest): answered
 * from its read-ahead when it was sent ahead, sent now when no COMMIT is on its way, and when one
 * is without it (the read-ahead guessed other fields), sent with `others` in a transaction of
 * their own (`sendReadsLast`). Asking first costs nothing on the wire: the client refuses a
 * statement after a COMMIT before sending anything.
 */
export async function readLast<Row>(context: DataActionContext, statement: CompiledQuery, others: readonly CompiledQuery[] = []): Promise<Row[]> {
  try {
    return (await context.trx.executeQuery<Row>(statement)).rows;
  } catch (error) {
    if (!(error instanceof StatementAfterCommitError)) throw error;
    await sendReadsLast(context, [statement, ...others]);
    return (await context.trx.executeQuery<Row>(statement)).rows;
  }
}
