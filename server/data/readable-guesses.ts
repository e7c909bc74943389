import { LRUCache } from 'lru-cache';

/** How many readers' guesses the process keeps; the least recently used one goes first. */
const KEPT_GUESSES = 1_000;

/**
 * The attributes each reader (`trailReaderKey`) could read of a model the last time it listed its
 * records. The statement of a page whose JSON PostgreSQL writes flags the columns it shows as
 * values, known only once the opening has answered the caller's permissions: a request sends its
 * page ahead with the attributes its reader had the last time (every exposed one the first time);
 * fewer now, the page read ahead is cut in Node; more, it is read again, in one more round trip
 * (`readLast`). A guess decides a round trip, never an answer. Attribute names only, never values.
 */
export const readableGuesses = new LRUCache<string, ReadonlySet<string>>({ max: KEPT_GUESSES });
