import { abilityPermits } from '@gatehouse/engine';
import { AccessDeniedError } from '../http/errors/access-denied-error.js';
import { required, type GatehouseContext } from '../http/state.js';

/**
 * 403 naming the first permission the caller does not hold: nobody hands out, or takes from
 * someone else, more than they have themselves.
 */
export function assertHolds(ctx: GatehouseContext, permissions: Iterable<string>): void {
  const { ability } = required(ctx, 'authorization');
  for (const permission of permissions) {
    if (!abilityPermits(ability, permission)) throw new AccessDeniedError(`You do not hold the permission ${permission}, so you cannot grant or change it.`, permission);
  }
}
