import { listMemberDetails } from '../db/repositories/members.js';
import type { GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import { membershipKey } from './find-member.js';
import { serializeMember } from './serialize-member.js';

/** `GET {t}/members`: the members of the organization in the request's route group. */
export function listMembers(): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    ctx.body = { data: (await listMemberDetails(ctx.state.trx, membershipKey(ctx))).map(serializeMember) };
  };
}
