/** How many readers' guesses the process keeps; the least recently used one goes first. */
const KEPT_GUESSES = 1_000;

/** Who reads a record's audit trail, as known both before the request's opening answers and after. */
export interface TrailReader {
  routeGroup: string | null;
  organizationSlug: string | null;
  userId: number | null;
  model: string;
}

/**
 * The fields whose changes each reader's last audit trail of a model showed. The trail's
 * statements depend on them, and they are known only once the opening has answered the caller's
 * permissions: a request sends its trail ahead with the fields its reader had the last time, and
 * those answers are used only when the fields are the same now (`sendLastReads`). A guess
 * decides a round trip, never an answer; a reader whose permissions changed is guessed wrong once.
 */
export class TrailFieldGuesses {
  readonly #guesses = new Map<string, readonly string[]>();

  constructor(readonly limit = KEPT_GUESSES) {}

  get(reader: TrailReader): readonly string[] | undefined {
    return this.#guesses.get(guessKey(reader));
  }

  set(reader: TrailReader, fields: readonly string[]): void {
    const key = guessKey(reader);
    // Map keeps insertion order: moving a used entry to the end makes the first the least recently used.
    this.#guesses.delete(key);
    if (this.#guesses.size >= this.limit) this.#guesses.delete(this.#guesses.keys().next().value!);
    this.#guesses.set(key, fields);
  }

  get size(): number {
    return this.#guesses.size;
  }
}

const guessKey = ({ routeGroup, organizationSlug, userId, model }: TrailReader) => JSON.stringify([routeGroup, organizationSlug, userId, model]);

/** The process's guesses: they hold field names, never values. */
export const trailFieldGuesses = new TrailFieldGuesses();
