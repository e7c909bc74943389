import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BoundValues } from '../../../server/db/statements/bound-values.js';
import { StatementCache } from '../../../server/db/statements/statement-cache.js';

// The cache's own rules, on statements compiled for PostgreSQL (nothing is executed here; the
// data tests run cached statements against the database).

const db = new Kysely<Record<string, Record<string, unknown>>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (kysely) => new PostgresIntrospector(kysely),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** A statement whose values appear in the SQL in another order than they are bound, one of them twice. */
function statement(cache: StatementCache, key: string, title: string, author: number) {
  const bound = new BoundValues();
  const [t, a] = [bound.bind(title), bound.bind(author)];
  return cache.statement(key, bound, () =>
    db
      .selectFrom('posts')
      .selectAll()
      .where('author_id', '=', a)
      .where((eb) => eb.or([eb('title', '=', t), eb('body', 'like', t)]))
      .where('status', '=', 'published')
      .compile(),
  );
}

describe('statement templates', () => {
  it('put each request’s values in their places, constants kept, however the SQL orders them', () => {
    const cache = new StatementCache(10);
    const first = statement(cache, 'posts', 'Hello', 7);
    const second = statement(cache, 'posts', 'Other', 9);
    expect(cache.compilations).toBe(1);
    expect(second.sql).toBe(first.sql);
    expect(first.sql).toBe('select * from "posts" where "author_id" = $1 and ("title" = $2 or "body" like $3) and "status" = $4');
    expect(first.parameters).toEqual([7, 'Hello', 'Hello', 'published']);
    expect(second.parameters).toEqual([9, 'Other', 'Other', 'published']);
  });

  it('keep at most their limit, dropping the least recently used', () => {
    const cache = new StatementCache(2);
    const compileOne = (key: string) => cache.statement(key, new BoundValues(), () => sql`select ${sql.lit(key)}`.compile(db));
    compileOne('a');
    compileOne('b');
    compileOne('a');
    compileOne('c');
    expect(cache.size).toBe(2);
    expect(cache.compilations).toBe(3);
    expect(compileOne('a').sql).toBe("select 'a'");
    expect(cache.compilations).toBe(3);
    expect(compileOne('b').sql).toBe("select 'b'");
    expect(cache.compilations).toBe(4);
  });

  it('hold at most their characters, keys and SQL together, dropping the least recently used', () => {
    const cache = new StatementCache(1_000, 10_000);
    // A key as large as a request's values make it: some 3 KB, with SQL of a few dozen characters.
    const compileLarge = (name: string) => cache.statement(name.repeat(3_000), new BoundValues(), () => sql`select ${sql.lit(name)}`.compile(db));
    compileLarge('a');
    compileLarge('b');
    compileLarge('c');
    compileLarge('a');
    compileLarge('d');
    expect(cache.characters).toBeLessThanOrEqual(10_000);
    expect(cache.compilations).toBe(4);
    compileLarge('a');
    compileLarge('c');
    compileLarge('d');
    expect(cache.compilations).toBe(4);
    compileLarge('b');
    expect(cache.compilations).toBe(5);
  });
});
