import { LRUCache } from 'lru-cache';

/** How many organization slugs the process remembers; the least recently used one goes first. */
const KEPT_SLUGS = 1_000;

/**
 * The id each organization slug named the last time a request's opening found it. A read whose
 * SQL depends on the caller's organization (a record scope, a named scope) is planned on it
 * before its opening answers; the opening then tells whether it still holds, and when it does
 * not the request reads again in a transaction of its own (`tenancy/open-member-request.ts`). It
 * decides a round trip, never an answer. Slugs and ids only: no request's data.
 */
export const organizationIds = new LRUCache<string, number>({ max: KEPT_SLUGS });
