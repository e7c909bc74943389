import { required, type GatehouseContext, type GatehouseMiddleware } from '../http/state.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';
import { explainDecision, type DecisionScene } from './explain-decision.js';
import { explainSchema } from './explain-schema.js';
import { explainedMember } from './explained-member.js';

function sceneOf(ctx: GatehouseContext, services: Services): DecisionScene {
  const { id, slug } = required(ctx, 'organization');
  return {
    trx: required(ctx, 'trx'),
    registry: services.config.models,
    group: required(ctx, 'routeGroup'),
    organization: { id, slug },
    membershipEnforcement: services.config.membershipEnforcement,
    base: ctx.path.slice(0, ctx.path.lastIndexOf('/')),
    callerId: required(ctx, 'auth').user.id,
    detailed: required(ctx, 'authorization').ability.can('explain', 'decisions'),
  };
}

/** `POST {t}/explain`: how the data routes would decide a member's request, and why. */
export function explainRequest(services: Services): GatehouseMiddleware {
  return async (ctx) => {
    const input = validate(explainSchema, ctx.request.body);
    ctx.body = await explainDecision(sceneOf(ctx, services), await explainedMember(ctx, input.user_id), input);
  };
}
