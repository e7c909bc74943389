import { listInvitations as listInOrganization } from '../db/repositories/invitations.js';
import { readQuery } from '../http/query-string.js';
import type { GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { invitationStatusSchema } from './invitation-schemas.js';
import { serializeInvitation } from './serialize-invitation.js';

export function listInvitations(): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const { status } = validate(invitationStatusSchema, readQuery(ctx, ['status']));
    const invitations = await listInOrganization(ctx.state.trx, ctx.state.organization.id, status ?? null);
    ctx.body = { data: invitations.map(serializeInvitation) };
  };
}
