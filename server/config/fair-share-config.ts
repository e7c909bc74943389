import { ConfigError } from '../errors/config-error.js';
import type { Share } from '../errors/fair-share-exceeded-error.js';
import { CONNECT_TIMEOUT_MS } from '../db/connection/database.js';

/**
 * How much of the database pool one organization, and one user, may hold at once: a fraction of
 * the pool below 1, or a whole number of connections. Past it a request waits up to `waitMs` for
 * one of its holder's own requests to finish, then is answered 429.
 */
export interface FairShareConfig {
  /** Default 0.5: half the pool. */
  organization?: number;
  /** Default 0.25: a quarter of the pool. */
  user?: number;
  /** Default 3000: as long as any request waits for a connection of the pool before its 503. */
  waitMs?: number;
}

/** The shares set by configuration; an address's is the user's (`shareSize`). */
type ConfiguredShare = Exclude<Share, 'address'>;

/** Shares as numbers of connections, at least one and at most the pool. */
export type ResolvedFairShare = Record<ConfiguredShare, number> & { waitMs: number };

/**
 * How many connections one holder of `share` may hold at once. A guest's address stands in for
 * the user it does not have, so it holds as many as one user: one client, signed in or not.
 */
export const shareSize = (shares: ResolvedFairShare, share: Share): number => shares[share === 'address' ? 'user' : share];

// A request past its share waits as long as it would for a pooled connection: a share refuses
// only what the pool itself would have kept waiting as long.
export const FAIR_SHARE_DEFAULTS = { organization: 0.5, user: 0.25, waitMs: CONNECT_TIMEOUT_MS } as const satisfies Required<FairShareConfig>;

// The longest delay a Node timer takes: a longer one fires after 1 ms, refusing at once.
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

function connections(name: string, share: number, poolSize: number): number {
  if (Number.isFinite(share) && share > 0 && share < 1) return Math.max(1, Math.floor(share * poolSize));
  if (Number.isSafeInteger(share) && share >= 1) return Math.min(share, poolSize);
  throw new ConfigError(`fairShare.${name} must be a fraction of the pool below 1 or a whole number of connections.`);
}

/** The configured shares over the defaults, in connections of a pool of `poolSize`. */
export function resolveFairShare(config: FairShareConfig = {}, poolSize: number): ResolvedFairShare {
  const { organization, user, waitMs } = { ...FAIR_SHARE_DEFAULTS, ...config };
  if (!Number.isSafeInteger(waitMs) || waitMs < 0 || waitMs > LONGEST_TIMER_MS) {
    throw new ConfigError(`fairShare.waitMs must be a whole number of milliseconds from 0 to ${LONGEST_TIMER_MS}.`);
  }
  return { organization: connections('organization', organization, poolSize), user: connections('user', user, poolSize), waitMs };
}
