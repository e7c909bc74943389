import { abilityPermits } from '@gatehouse/engine';
import { AccessDeniedError } from '../errors/access-denied-error.js';
import type { GatehouseContext, TenantMemberState } from '../http/state.js';

/**
 * An inviter hands out only permissions they hold themselves (`rolePermissions`: those of the
 * invitation's role in the organization); otherwise `invitations.store` alone would let anyone
 * mint an owner.
 */
export function assertMayGrant(ctx: GatehouseContext<TenantMemberState>, rolePermissions: readonly string[]): void {
  const { ability } = ctx.state.authorization;
  if (!rolePermissions.every((permission) => abilityPermits(ability, permission))) {
    throw new AccessDeniedError('You cannot invite with a role that has permissions you do not hold.');
  }
}
