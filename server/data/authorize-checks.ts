import type { DataState, GatehouseContext, GatehouseMiddleware } from '../http/state.js';
import { validate } from '../http/validate.js';
import { createModelRegistry } from '../models/model-registry.js';
import type { Services } from '../services.js';
import { authorizeSchema } from './authorize-schema.js';
import { checkAction, type CheckResult } from './check-action.js';
import { checkResourceAction } from './check-resource-action.js';
import { askingService, recordAuthorizeRefusals } from '../decisions/authorize-refusals.js';
import { serviceResources } from '../permissions/service-resources.js';
import { dataActionContextFromRequest } from './data-action-context-from-request.js';
import { modelAbilities } from './model-abilities.js';

// A server that serves no registered models knows none: every check is an unknown model.
const NO_MODELS = createModelRegistry([]);

const contextOf = (services: Services, ctx: GatehouseContext<DataState>) => dataActionContextFromRequest(ctx, services.config.models ?? NO_MODELS);

/**
 * `POST {t}/authorize`: each check through its data route's gates, one after the other in the
 * caller's tenant transaction, answered in order; a check on another service's registered
 * resource by the caller's permissions. A refused or unknown check is that check's answer, never
 * the call's; refusals go to the decision log and the metrics like refused requests.
 */
export function authorizeChecks(services: Services): GatehouseMiddleware<DataState> {
  return async (ctx) => {
    const { checks } = validate(authorizeSchema, ctx.request.body);
    const service = askingService(ctx);
    const context = contextOf(services, ctx);
    const resources = new Map((await serviceResources(ctx.state.trx, services.config.services)).map((resource) => [resource.resource, resource]));
    const results: CheckResult[] = [];
    for (const check of checks) {
      const resource = services.config.models?.has(check.model) ? undefined : resources.get(check.model);
      results.push(resource ? checkResourceAction(ctx.state.authorization.ability, resource, check) : await checkAction(context, check));
    }
    recordAuthorizeRefusals(ctx, { decisions: services.decisions, metrics: services.observability.metrics, service }, checks, results);
    ctx.body = { results };
  };
}

/** The model-level abilities of the request's caller on what the route group serves. */
export function callerAbilities(services: Services, ctx: GatehouseContext<DataState>) {
  const served = services.config.models ? ctx.state.routeGroup.models : [];
  return modelAbilities(contextOf(services, ctx), served);
}
