import type { DataState, GatehouseContext, GatehouseMiddleware } from '../http/state.js';
import { validate } from '../http/validate.js';
import { createModelRegistry } from '../models/model-registry.js';
import { markDenied } from '../permissions/denied-refusal.js';
import type { Services } from '../services.js';
import type { AuthorizePlan } from '@gatehouse/engine';
import { authorizeSchema } from './authorize-schema.js';
import { authorizePlan } from './authorize-plans.js';
import { checkAction, type CheckResult, type ServedCheck } from './check-action.js';
import { checkResourceAction } from './check-resource-action.js';
import { askingService, recordAuthorizeRefusals } from '../decisions/authorize-refusals.js';
import { serviceResources } from '../permissions/service-resources.js';
import { dataActionContextFromRequest } from './data-action-context-from-request.js';
import { modelAbilities } from './model-abilities.js';

// A server that serves no registered models knows none: every check is an unknown model.
const NO_MODELS = createModelRegistry([]);

const contextOf = (services: Services, ctx: GatehouseContext<DataState>) => dataActionContextFromRequest(ctx, services.config.models ?? NO_MODELS);

/**
 * `POST {t}/authorize`: each check through the gates of the route that answers its request (its
 * data route, or a route in `served` that answers instead), one after the other in the
 * caller's tenant transaction, answered in order, a refusal with the reason its 403 would carry;
 * a check on another service's registered resource by the caller's permissions. A refused or
 * unknown check is that check's answer, never the call's; refusals go to the decision log and
 * the metrics like refused requests. Each plan asked (`plans`) answers which records of a model
 * the caller may act on: always, never, or a condition.
 */
export function authorizeChecks(services: Services, served: readonly ServedCheck[]): GatehouseMiddleware<DataState> {
  return async (ctx) => {
    const { checks = [], plans } = validate(authorizeSchema, ctx.request.body);
    const service = askingService(ctx);
    const context = contextOf(services, ctx);
    const servedBy = { ability: ctx.state.authorization.ability, checks: served };
    const resources = new Map((await serviceResources(ctx.state.trx, services.config.services)).map((resource) => [resource.resource, resource]));
    const results: CheckResult[] = [];
    for (const check of checks) {
      const resource = services.config.models?.has(check.model) ? undefined : resources.get(check.model);
      const result = resource ? checkResourceAction(ctx.state.authorization.ability, resource, check) : await checkAction(context, check, servedBy);
      results.push(result.allowed ? result : { ...result, reason: markDenied(result.reason, ctx.state.membership) });
    }
    recordAuthorizeRefusals(ctx, { decisions: services.decisions, metrics: services.observability.metrics, service }, checks, results);
    if (plans === undefined) {
      ctx.body = { results };
      return;
    }
    const answered: AuthorizePlan[] = [];
    for (const asked of plans) answered.push(await authorizePlan(context, asked, servedBy));
    ctx.body = { results, plans: answered };
  };
}

/**
 * The model-level abilities of the request's caller on what the route group serves; under an
 * organization, the checks of `servedAt` as the tenant routes that answer them decide.
 */
export function callerAbilities(services: Services, ctx: GatehouseContext<DataState>, servedAt: readonly ServedCheck[]) {
  const served = services.config.models ? ctx.state.routeGroup.models : [];
  const servedBy = ctx.state.organization ? { ability: ctx.state.authorization.ability, checks: servedAt } : undefined;
  return modelAbilities(contextOf(services, ctx), served, servedBy);
}
