import type { RequestState, Stage } from '../http/state.js';
import type { Services } from '../services.js';
import { clientAddress } from './client-address.js';

/**
 * Runs the rest of a guest's request (a group without auth) within its client address's share of
 * the pool (`fair-shares.ts`), in the place of the user it does not have, and not the
 * organization's: anyone may send these, so counting them against the organization would let one
 * anonymous client leave its members 429s. It comes first in the guest's chain: the lookup of the
 * organization its slug names takes a pooled connection too, and one client's lookups must not
 * take more of the pool than its share.
 */
export function holdAddressShare(services: Services): Stage<RequestState, object> {
  return (ctx, next) => services.fairShares.hold({ organization: null, user: null, address: clientAddress(ctx.ip) }, ctx.state.deadline.caller, () => next({}));
}
