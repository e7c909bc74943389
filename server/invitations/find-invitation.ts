import { isStoredInteger } from '../models/integer-range.js';
import { findInvitation as findInOrganization, type InvitationRecord } from '../db/repositories/invitations.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { GatehouseContext, TenantMemberState } from '../http/state.js';
import { assertCan } from '../permissions/authorize.js';

const ID = /^[1-9][0-9]{0,9}$/;

/**
 * The invitation `:id` of the current organization, checked in the order permission (403), record
 * (404; another tenant's is as absent as a missing one), state (422: only pending ones change): a
 * caller without the permission cannot tell which invitations exist.
 */
export async function findPendingInvitation(ctx: GatehouseContext<TenantMemberState>, action: 'update' | 'destroy', change: string): Promise<InvitationRecord> {
  assertCan(ctx, action, 'invitations');
  const raw = ctx.params.id ?? '';
  const id = ID.test(raw) ? Number(raw) : NaN;
  // An id past the key's range names no invitation, like any other id that matches none.
  const invitation = isStoredInteger(id) ? await findInOrganization(ctx.state.trx, ctx.state.organization.id, id) : undefined;
  if (!invitation) throw new NotFoundError('Invitation not found.');
  if (invitation.status !== 'pending') throw ValidationError.field('status', `Only pending invitations can be ${change}.`);
  return invitation;
}
