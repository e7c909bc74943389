import type { CompiledQuery } from 'kysely';
import { sendLastReads } from '../db/transactions/read-ahead.js';
import { tenantOpeningSql } from '../db/transactions/tenant-transaction.js';
import type { DataActionContext } from './data-action-context.js';

/**
 * A read's last statements once it knows them: those sent ahead are read as they come, the others
 * go with COMMIT, in a transaction of their own under the same tenant context when the COMMIT of
 * this one is on its way without them (its read-ahead guessed other statements).
 */
export function sendReadsLast(context: DataActionContext, statements: readonly CompiledQuery[]): Promise<void> {
  const { organizationId, userId } = context.scope;
  return sendLastReads(context.trx, statements, tenantOpeningSql({ organizationId, userId }));
}
