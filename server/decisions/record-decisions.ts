import type { Middleware } from 'koa';
import type { GatehouseContext, GatehouseState } from '../http/state.js';
import type { DecisionLog } from './decision-log.js';
import { routeTemplate } from './route-template.js';

/**
 * Records every refused request once it is answered: the refusal the error handler kept, with
 * who asked, where and through which route. Outside the error handler, so it sees the answer.
 */
export function recordDecisions(decisions: DecisionLog): Middleware<GatehouseState> {
  return async (ctx, next) => {
    await next();
    const { refusal } = ctx.state;
    if (refusal === undefined) return;
    decisions.record({
      event: 'authz.denied',
      source: 'request',
      request_id: ctx.state.requestId,
      user_id: ctx.state.auth?.user.id ?? null,
      organization_id: ctx.state.organization?.id ?? null,
      route_group: ctx.state.routeGroup?.name ?? null,
      method: ctx.method,
      route: routeTemplate(ctx as GatehouseContext),
      status: ctx.status,
      ...ctx.state.decisionTarget,
      gate: refusal.gate,
      ...(refusal.permission === undefined ? {} : { permission: refusal.permission }),
      ...(refusal.policy === undefined ? {} : { policy: refusal.policy }),
    });
  };
}
