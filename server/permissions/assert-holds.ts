import { abilityPermits } from '@gatehouse/engine';
import { AccessDeniedError } from '../errors/access-denied-error.js';
import type { DataState, GatehouseContext } from '../http/state.js';

/**
 * 403 naming the first permission the caller does not hold: nobody hands out, or takes from
 * someone else, more than they have themselves.
 */
export function assertHolds(ctx: GatehouseContext<DataState>, permissions: Iterable<string>): void {
  const { ability } = ctx.state.authorization;
  for (const permission of permissions) {
    if (!abilityPermits(ability, permission)) throw new AccessDeniedError(`You do not hold the permission ${permission}, so you cannot grant or change it.`, permission);
  }
}
