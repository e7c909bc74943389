import { abilityPermits } from '@gatehouse/engine';
import { findRolePermissions } from '../db/repositories/roles.js';
import { AccessDeniedError } from '../errors/access-denied-error.js';
import type { GatehouseContext, TenantMemberState } from '../http/state.js';

/**
 * An inviter hands out only permissions they hold themselves; otherwise `invitations.store`
 * alone would let anyone mint an owner.
 */
export async function assertMayGrant(ctx: GatehouseContext<TenantMemberState>, roleId: number): Promise<void> {
  const role = await findRolePermissions(ctx.state.trx, ctx.state.organization.id, roleId);
  const { ability } = ctx.state.authorization;
  if (!(role?.permissions ?? []).every((permission) => abilityPermits(ability, permission))) {
    throw new AccessDeniedError('You cannot invite with a role that has permissions you do not hold.');
  }
}
