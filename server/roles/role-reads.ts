import { roleInContext } from '../db/repositories/roles.js';
import type { Services } from '../services.js';
import { pathId } from '../models/path-id.js';
import type { RequestReads } from '../tenancy/request-reads.js';
import { tenantStatements } from '../db/transactions/tenant-statements.js';

/**
 * What `{t}/roles/{id}/permissions` reads, sent with the request's opening: the role with its
 * permissions in the tenant context's organization. A show reads nothing else (its COMMIT goes
 * with them); a replacement's write, audit row and COMMIT follow in one more round trip.
 */
export function roleReads(services: Services, complete: boolean): RequestReads {
  const db = tenantStatements(services.db);
  return (ctx) => {
    const id = pathId(ctx.params.id);
    return id === null ? null : { statements: [roleInContext(db, { id }).compile()], complete };
  };
}
