import { createQueryId, type CompiledQuery } from 'kysely';
import { LRUCache } from 'lru-cache';
import { Placeholder, type BoundValues } from './bound-values.js';

/** How many compiled shapes the process keeps; the least recently used one goes first. */
const CACHED_STATEMENTS = 1_000;

/**
 * How many characters the kept shapes may hold, their keys' and SQL's together; past it, the least
 * recently used go first. A key holds the request values its SQL depends on (a scope's argument,
 * up to 4000 characters each), so a count alone let one caller pin some 16 KB an entry, tens of
 * MB in all. The demo's shapes take a few hundred characters: a thousand of ten times that fit.
 */
const CACHED_STATEMENT_CHARACTERS = 4_000_000;

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
  readonly #templates: LRUCache<string, StatementTemplate>;
  #compilations = 0;
  #hits = 0;

  constructor(limit = CACHED_STATEMENTS, characters = CACHED_STATEMENT_CHARACTERS) {
    // A shape larger than the whole budget is compiled each time rather than kept.
    this.#templates = new LRUCache({ max: limit, maxSize: characters, sizeCalculation: (template, key) => key.length + template.sql.length });
  }

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

  /** The characters the kept shapes hold, keys and SQL: what stays within the budget. */
  get characters(): number {
    return this.#templates.calculatedSize;
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
    } else {
      this.#compilations += 1;
      const { sql, query, parameters } = compile();
      template = { sql, query, parameters };
      this.#templates.set(key, template);
    }
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
