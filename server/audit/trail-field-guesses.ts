import { LRUCache } from 'lru-cache';

/** How many readers' guesses the process keeps; the least recently used one goes first. */
const KEPT_GUESSES = 1_000;

/** Who reads a record's audit trail, as known both before the request's opening answers and after. */
export interface TrailReader {
  routeGroup: string | null;
  organizationSlug: string | null;
  userId: number | null;
  model: string;
}

/** A reader as the guesses' key. */
export const trailReaderKey = ({ routeGroup, organizationSlug, userId, model }: TrailReader) => JSON.stringify([routeGroup, organizationSlug, userId, model]);

/**
 * The fields whose changes each reader's last audit trail of a model showed. The trail's
 * statements depend on them, and they are known only once the opening has answered the caller's
 * permissions: a request sends its trail ahead with the fields its reader had the last time, and
 * those answers are used only when the fields are the same now (`sendLastReads`). A guess
 * decides a round trip, never an answer; a reader whose permissions changed is guessed wrong
 * once. Field names only, never values.
 */
export const trailFieldGuesses = new LRUCache<string, readonly string[]>({ max: KEPT_GUESSES });
