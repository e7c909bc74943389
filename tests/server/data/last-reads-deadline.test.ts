import { compileAbility } from '@gatehouse/engine';
import { CompiledQuery } from 'kysely';
import { expect, it } from 'vitest';
import { createDataActionContext } from '../../../server/data/data-action-context.js';
import { readLast } from '../../../server/data/send-last-reads.js';
import { CallerPresence } from '../../../server/db/connection/caller-presence.js';
import { inTenantTransaction, loose, tenantOpeningSql } from '../../../server/db/transactions/tenant-transaction.js';
import { createModelRegistry } from '../../../server/models/model-registry.js';
import { oneConnectionDatabase } from '../../support/one-connection-database.js';

// A read whose read-ahead sent COMMIT without one of its statements reads it in a transaction of
// its own (server/data/send-last-reads.ts): that transaction is bounded by the request's deadline too.
const db = oneConnectionDatabase();

it('reads a statement the read-ahead did not send under the request deadline', async () => {
  const deadline = { statementTimeoutMs: 250, caller: new CallerPresence() };
  const timeout = CompiledQuery.raw("SELECT current_setting('statement_timeout') AS timeout, $1::integer AS n", [1]);
  const rows = await inTenantTransaction(
    db(),
    tenantOpeningSql({ organizationId: null, userId: null }),
    (trx) => {
      const policy = { user: { id: 1 }, ability: compileAbility([]), role: null, organization: { id: 1, slug: 'acme' }, routeGroup: 'tenant' };
      const context = createDataActionContext({ trx: loose(trx), registry: createModelRegistry([]), policy, served: [], deadline });
      return readLast<{ timeout: string }>(context, timeout);
    },
    { ahead: { statements: [], complete: true } },
  );
  expect(rows).toEqual([{ timeout: '250ms', n: 1 }]);
});
