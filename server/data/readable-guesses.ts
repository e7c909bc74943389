import { LRUCache } from 'lru-cache';

/** How many readers' guesses the process keeps; the least recently used one goes first. */
const KEPT_GUESSES = 1_000;

/**
 * The attributes each reader (`trailReaderKey`) could read of a model the last time it listed or
 * showed its records. A record's JSON built by PostgreSQL names its columns in the statement, and
 * they are known only once the opening has answered the caller's permissions: a request sends its
 * read ahead with the attributes its reader had the last time, and reads again, in one more round
 * trip, when they differ now (`sendLastReads`). A guess decides a round trip, never an answer.
 * Attribute names only, never values.
 */
export const readableGuesses = new LRUCache<string, ReadonlySet<string>>({ max: KEPT_GUESSES });
