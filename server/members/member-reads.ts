import { memberToChange } from '../db/repositories/members.js';
import { roleInContext } from '../db/repositories/roles.js';
import type { Services } from '../services.js';
import type { RequestReads } from '../tenancy/request-reads.js';
import { tenantStatements } from '../db/transactions/tenant-statements.js';
import { pathId } from '../models/path-id.js';
import { lastOwnerReads } from './last-owner-rule.js';
import { updateMemberSchema } from './member-schemas.js';

/*
 * What the membership writes read before they write, planned from the request alone (the path's
 * id, the body, the caller's route group) and sent with the request's opening
 * (`tenancy/request-reads.ts`): the member with their role's permissions, the role the body names,
 * and the last-owner rule's locked owners and the owner role's permissions. The organization is
 * the tenant context's, which the opening sets only for a member. The handler then reads them in
 * its own order, after its checks; its write, audit row and COMMIT follow in one more round trip.
 */

/** `PATCH {t}/members/{id}`. */
export function memberUpdateReads(services: Services): RequestReads {
  const db = tenantStatements(services.db);
  return (ctx, { group }) => {
    const userId = pathId(ctx.params.id);
    if (userId === null) return null;
    const body = updateMemberSchema.safeParse(ctx.request.body);
    const roleId = body.success ? body.data.role_id : undefined;
    return {
      statements: [
        memberToChange(db, group.name, userId).compile(),
        ...(roleId !== undefined ? [roleInContext(db, { id: roleId }).compile()] : []),
        ...lastOwnerReads(db, services.config.ownerRole),
      ],
      complete: false,
    };
  };
}

/** `DELETE {t}/members/{id}`. */
export function memberRemovalReads(services: Services): RequestReads {
  const db = tenantStatements(services.db);
  return (ctx, { group }) => {
    const userId = pathId(ctx.params.id);
    if (userId === null) return null;
    return { statements: [memberToChange(db, group.name, userId).compile(), ...lastOwnerReads(db, services.config.ownerRole)], complete: false };
  };
}
