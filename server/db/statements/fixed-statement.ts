import type { CompiledQuery, Kysely } from 'kysely';
import { BoundValues } from './bound-values.js';
import { identityOf, statementCache } from './statement-cache.js';

/**
 * A statement whose SQL never changes, only its values (an audit row, a user by id): `build`
 * runs once, with placeholders for the values, and every later call only binds them. `build`
 * passes its values on to Kysely untouched; whatever is derived from them is derived before.
 */
export function fixedStatement<S, V extends readonly unknown[]>(build: (db: Kysely<S>, ...values: V) => { compile(): CompiledQuery }) {
  const key = `fixed:${identityOf(build)}`;
  return (db: Kysely<S>, ...values: V): CompiledQuery => {
    const bound = new BoundValues();
    const placeholders = values.map((value) => bound.bind(value)) as unknown as V;
    return statementCache.statement(key, bound, () => build(db, ...placeholders).compile());
  };
}
