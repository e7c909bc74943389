import { LRUCache } from 'lru-cache';
import type { AccessPlans } from '../data/record-access.js';

/** How many readers the process remembers; the least recently used one goes first. */
const KEPT_READERS = 10_000;

/**
 * The plans of the permissions each reader held the last time its request was opened, where they
 * held record conditions (`posts.index:visible`): a read sends its statements ahead with the
 * conditions they then added, before the opening answers the permissions it holds now. The
 * opening tells whether they are the same plans (one compiled entry per permission lists and
 * caller, `permissions/compiled-permissions.ts`); when they are not, the request reads again in a
 * transaction of its own (`open-member-request.ts`). It decides a round trip, never an answer.
 */
export const accessGuesses = new LRUCache<string, AccessPlans>({ max: KEPT_READERS });

/** A reader as `accessGuesses` keys it: a user in a route group, in the organization its request's slug names. */
export const accessReader = (group: string, organizationSlug: string | null, userId: number): string => `${group}\u0000${organizationSlug ?? ''}\u0000${userId}`;
