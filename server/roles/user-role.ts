import { packAbilityRules } from '@gatehouse/engine';
import { required, type GatehouseMiddleware } from '../http/state.js';

/** The caller's role, effective permissions and packed CASL rules for a client-side ability. */
export function userRole(): GatehouseMiddleware {
  return async (ctx) => {
    const { role, permissions, ability } = required(ctx, 'authorization');
    ctx.body = { role, permissions, rules: packAbilityRules(ability) };
  };
}
