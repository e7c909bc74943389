import type { GatehouseContext, GatehouseMiddleware, TenantMemberState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { SERVED_CHECKS } from '../routes/serving-routes.js';
import { serviceResources } from '../permissions/service-resources.js';
import type { Services } from '../services.js';
import { explainDecision, type DecisionScene } from './explain-decision.js';
import { explainSchema } from './explain-schema.js';
import { explainedMember } from './explained-member.js';

async function sceneOf(ctx: GatehouseContext<TenantMemberState>, services: Services): Promise<DecisionScene> {
  const { id, slug } = ctx.state.organization;
  return {
    trx: ctx.state.trx,
    registry: services.config.models,
    group: ctx.state.routeGroup,
    organization: { id, slug },
    membershipEnforcement: services.config.membershipEnforcement,
    base: ctx.path.slice(0, ctx.path.lastIndexOf('/')),
    callerId: ctx.state.auth.user.id,
    disclosure: ctx.state.authorization.ability.can('explain', 'decisions') ? 'organization' : 'none',
    served: SERVED_CHECKS,
    resources: await serviceResources(ctx.state.trx, services.config.services),
  };
}

/** `POST {t}/explain`: how the data routes would decide a member's request, and why. */
export function explainRequest(services: Services): GatehouseMiddleware<TenantMemberState> {
  return async (ctx) => {
    const input = validate(explainSchema, ctx.request.body);
    ctx.body = await explainDecision(await sceneOf(ctx, services), await explainedMember(ctx, input.user_id), input);
  };
}
