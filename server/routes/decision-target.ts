import { keptRecordId } from '../decisions/decision-event.js';
import type { GatehouseMiddleware, GroupState } from '../http/state.js';
import type { DataRoute } from './data-routes.js';

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
      ctx.state.decisionTarget = { model, action, ...keptRecordId(id) };
    }
    await next();
  };
}
