import { abilityPermits } from '@gatehouse/engine';
import { AccessDeniedError } from '../errors/access-denied-error.js';
import type { DataState, GatehouseContext, GatehouseMiddleware } from '../http/state.js';

/**
 * 403 unless the caller's permissions allow `{slug}.{action}`: the check of a route outside the
 * model policies (members, roles, invitations, an application's own), so its reason is the
 * administration gate with the permission lacking. Such a route checks no record against record
 * conditions, so it needs the whole permission: a conditioned grant (`roles.update:minor`) does
 * not count, as in a policy's `hasPermission`.
 */
export function assertCan(ctx: GatehouseContext<DataState>, action: string, slug: string): void {
  if (!abilityPermits(ctx.state.authorization.ability, `${slug}.${action}`)) throw new AccessDeniedError('This action is unauthorized.', `${slug}.${action}`);
}

export function authorize(action: string, slug: string): GatehouseMiddleware<DataState> {
  return async (ctx, next) => {
    assertCan(ctx, action, slug);
    await next();
  };
}
