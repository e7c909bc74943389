import { countRoleMembers, type MemberDetails } from '../db/repositories/members.js';
import { AccessDeniedError } from '../errors/access-denied-error.js';
import { required, type GatehouseContext } from '../http/state.js';
import type { Services } from '../services.js';

/** An organization always keeps an owner: its last one can be neither demoted nor removed. */
export async function assertKeepsAnOwner(services: Services, ctx: GatehouseContext, member: MemberDetails): Promise<void> {
  const { ownerRole } = services.config;
  if (member.role_slug !== ownerRole) return;
  if ((await countRoleMembers(required(ctx, 'trx'), required(ctx, 'organization').id, ownerRole)) > 1) return;
  throw new AccessDeniedError(`The last ${ownerRole} of the organization cannot be demoted or removed.`);
}

/** Nobody changes their own role: a member cannot promote, nor by mistake demote, themselves. */
export function assertNotOwnRole(ctx: GatehouseContext, member: MemberDetails): void {
  if (member.id === required(ctx, 'auth').user.id) throw new AccessDeniedError('You cannot change your own role.');
}

/** The entries of `list` that are not in `removed`. */
export const without = (list: readonly string[], removed: readonly string[]): string[] => list.filter((entry) => !removed.includes(entry));

/** The entries of `next` that `current` lacks; nothing when the list is not being replaced. */
export function added(current: readonly string[], next: readonly string[] | undefined): string[] {
  return without(next ?? [], current);
}
