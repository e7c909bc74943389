import { invitationInContext, invitationRolePermissions, type InvitationRecord } from '../db/repositories/invitations.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { GatehouseContext, TenantMemberState } from '../http/state.js';
import { pathId } from '../models/path-id.js';
import { assertCan } from '../permissions/authorize.js';
import type { Services } from '../services.js';
import type { RequestReads } from '../tenancy/request-reads.js';
import { tenantStatements } from '../db/transactions/tenant-statements.js';

/**
 * The invitation `:id` of the current organization, checked in the order permission (403), record
 * (404; another tenant's is as absent as a missing one), state (422: only pending ones change): a
 * caller without the permission cannot tell which invitations exist. One statement, which travels
 * with the request's opening (invitationReads).
 */
export async function findPendingInvitation(ctx: GatehouseContext<TenantMemberState>, action: 'update' | 'destroy', change: string): Promise<InvitationRecord> {
  assertCan(ctx, action, 'invitations');
  // An id past the key's range names no invitation, like any other id that matches none.
  const id = pathId(ctx.params.id);
  const invitation = id !== null ? await invitationInContext(ctx.state.trx, id).executeTakeFirst() : undefined;
  if (!invitation) throw new NotFoundError('Invitation not found.');
  if (invitation.status !== 'pending') throw ValidationError.field('status', `Only pending invitations can be ${change}.`);
  return invitation;
}

/**
 * What `{t}/invitations/{id}` (cancel, resend) reads first, sent with the request's opening: the
 * invitation, and for a resend (`role`) its role's permissions.
 */
export function invitationReads(services: Services, { role }: { role: boolean }): RequestReads {
  const db = tenantStatements(services.db);
  return (ctx) => {
    const id = pathId(ctx.params.id);
    if (id === null) return null;
    return { statements: [invitationInContext(db, id).compile(), ...(role ? [invitationRolePermissions(db, id).compile()] : [])], complete: false };
  };
}
