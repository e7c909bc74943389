import { listMemberDetails } from '../db/repositories/members.js';
import { required, type GatehouseMiddleware } from '../http/state.js';
import { membershipKey } from './find-member.js';
import { serializeMember } from './serialize-member.js';

/** `GET {t}/members`: the members of the organization in the request's route group. */
export function listMembers(): GatehouseMiddleware {
  return async (ctx) => {
    ctx.body = { data: (await listMemberDetails(required(ctx, 'trx'), membershipKey(ctx))).map(serializeMember) };
  };
}
