import { rememberedTokenClaims } from '../auth/authenticate.js';
import type { RequestState, Stage } from '../http/state.js';
import type { Services } from '../services.js';
import { addressHolders } from './hold-address-share.js';

/**
 * Runs the rest of a request that checks its session outside a member's tenant transaction
 * (logout, organization creation, the slug checks, accepting an invitation) within its caller's
 * share of the pool: the user its signed token names, else its client address. The check of the
 * session and the handler's statements each take a pooled connection, so the share is taken
 * first, before any of them. A token that fails its signature is a 401 here, before any share;
 * one that passes is not checked again by the session's stage.
 */
export function holdCallerShare(services: Services): Stage<RequestState, object> {
  return async (ctx, next) => {
    const claims = await rememberedTokenClaims(ctx, services);
    const holders = claims ? { organization: null, user: String(claims.userId), address: null } : addressHolders(ctx.ip);
    await services.fairShares.hold(holders, ctx.state.deadline.caller, () => next({}));
  };
}
