import type { GatehouseMiddleware } from '../http/state.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';
import { explainDecision } from './explain-decision.js';
import { explainSchema } from './explain-schema.js';
import { explainedMember } from './explained-member.js';

/** `POST {t}/explain`: how the data routes would decide a member's request, and why. */
export function explainRequest(services: Services): GatehouseMiddleware {
  return async (ctx) => {
    const input = validate(explainSchema, ctx.request.body);
    ctx.body = await explainDecision(ctx, services, await explainedMember(ctx, input.user_id), input);
  };
}
