import type { RequestState, Stage } from '../http/state.js';
import type { Services } from '../services.js';
import { clientAddress } from './client-address.js';
import type { ShareHolders } from './fair-shares.js';

/**
 * What a request without a session counts against: its client address's share of the pool
 * (`fair-shares.ts`), in the place of the user it does not have, and never an organization's:
 * anyone may send these, so counting them against the organization would let one anonymous client
 * leave its members 429s.
 */
export const addressHolders = (ip: string): ShareHolders => ({ organization: null, user: null, address: clientAddress(ip) });

/**
 * Runs the rest of an anonymous request within its client address's share of the pool: a guest's
 * (a group without auth), and sign-in, registration and password recovery. It comes first in
 * their chains: every pooled connection they take, a guest's lookup of the organization its slug
 * names included, is within the share.
 */
export function holdAddressShare(services: Services): Stage<RequestState, object> {
  return (ctx, next) => services.fairShares.hold(addressHolders(ctx.ip), ctx.state.deadline.caller, () => next({}));
}
