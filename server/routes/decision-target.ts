import type { GatehouseMiddleware, GroupState } from '../http/state.js';
import type { DataRoute } from './data-routes.js';

/** A record id as a path segment carries it; anything else is not kept. */
const RECORD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Notes what a data request is about (its model, action and record) before any gate can refuse
 * it, so the decision log can say it and the console explain it. Only a model the group serves:
 * another path segment never reaches the log.
 */
export function noteDecisionTarget(route: DataRoute): GatehouseMiddleware<GroupState> {
  const action = route.operation === 'patch' ? 'update' : route.operation;
  return async (ctx, next) => {
    const { model, id } = ctx.params;
    if (model !== undefined && ctx.state.routeGroup.models.includes(model)) {
      ctx.state.decisionTarget = { model, action, ...(id !== undefined && RECORD_ID.test(id) ? { record_id: id } : {}) };
    }
    await next();
  };
}
