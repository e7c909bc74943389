import { createQueryId, type CompiledQuery } from 'kysely';
import { Placeholder, type BoundValues } from './bound-values.js';

/** How many compiled shapes the process keeps; the least recently used one goes first. */
const CACHED_STATEMENTS = 1_000;

/** A compiled statement with placeholders among its parameters: the SQL stays, the values change. */
interface StatementTemplate {
  sql: string;
  query: CompiledQuery['query'];
  parameters: readonly unknown[];
}

/**
 * Compiled statements by shape. Kysely builds and compiles a statement anew on every execution;
 * a statement whose shape (its JSON key: the model, the clauses, where each value goes, and
 * whatever else its SQL depends on) was compiled before skips both and only binds its values.
 */
export class StatementCache {
  readonly #templates = new Map<string, StatementTemplate>();
  #compilations = 0;
  #hits = 0;

  constructor(readonly limit = CACHED_STATEMENTS) {}

  /** How many statements were compiled rather than found: what a test reads to see the cache at work. */
  get compilations(): number {
    return this.#compilations;
  }

  /** How many statements were found compiled: with `compilations`, what the metrics report. */
  get hits(): number {
    return this.#hits;
  }

  get size(): number {
    return this.#templates.size;
  }

  /**
   * The statement of `key` with `bound`'s values. `compile` runs only for a shape not seen (or
   * evicted) before; it builds the statement from the same shape the key was taken from, with
   * placeholders for the bound values.
   */
  statement(key: string, bound: BoundValues, compile: () => CompiledQuery): CompiledQuery {
    let template = this.#templates.get(key);
    if (template) {
      this.#hits += 1;
      // Map keeps insertion order: moving a used entry to the end makes the first the least recently used.
      this.#templates.delete(key);
    } else {
      this.#compilations += 1;
      const { sql, query, parameters } = compile();
      template = { sql, query, parameters };
      if (this.#templates.size >= this.limit) this.#templates.delete(this.#templates.keys().next().value!);
    }
    this.#templates.set(key, template);
    const parameters = template.parameters.map((parameter) => (parameter instanceof Placeholder ? bound.values[parameter.index] : parameter));
    return { sql: template.sql, query: template.query, parameters, queryId: createQueryId() };
  }
}

/** The process's cache: compiled statements hold no request's data, only SQL and constants. */
export const statementCache = new StatementCache();

const identities = new WeakMap<object, number>();
let identified = 0;

/**
 * A number for an object (a model definition, a fixed statement) inside statement keys: two
 * servers in one process may register different models under the same slug.
 */
export function identityOf(owner: object): number {
  let identity = identities.get(owner);
  if (identity === undefined) identities.set(owner, (identity = (identified += 1)));
  return identity;
}
