import { subject } from '@casl/ability';
import fc from 'fast-check';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAbility, conditionContext, createConditionCatalog, resolveCondition, type RecordCondition } from '@gatehouse/engine';
import { conditionSql } from '../../../server/listing/condition-sql.js';
import { defineModel, type ModelDefinition } from '../../../server/models/define-model.js';
import { createEmptyDatabase, type TestDatabase } from '../../support/database.js';

// Issue 35: for generated conditions and hostile rows, the SQL filter holds a row exactly when the
// in-memory CASL check allows it: NULLs, empty relations (CASL issue 1073), case, `%` and `_`,
// integers at the edges of int4.

const posts = defineModel({
  slug: 'posts',
  tenantOwned: false,
  attributes: { title: 'string', author_id: 'integer', score: 'integer', pinned: 'boolean' },
  fillable: [],
  relations: { comments: { kind: 'hasMany', model: 'comments', foreignKey: 'post_id' }, author: { kind: 'belongsTo', model: 'users', foreignKey: 'author_id' } },
});
const comments = defineModel({ slug: 'comments', tenantOwned: false, attributes: { post_id: 'integer', flagged: 'boolean', body: 'string' }, fillable: [] });
const users = defineModel({ slug: 'users', tenantOwned: false, attributes: { name: 'string' }, fillable: [] });
const MODELS: Record<string, ModelDefinition> = { posts, comments, users };

const STRINGS = ['a', 'A', '%', '_', 'a%', 'é', 'e\u0301', ''];
const INTEGERS = [0, 1, -1, 7, 2147483647, -2147483648];
const nullable = <T>(values: readonly T[]) => fc.option(fc.constantFrom(...values), { nil: null });

const ROWS = fc.array(
  fc.record({
    title: nullable(STRINGS),
    author_id: fc.option(fc.constantFrom(1, 2), { nil: null }),
    score: nullable(INTEGERS),
    pinned: fc.option(fc.boolean(), { nil: null }),
    comments: fc.array(fc.record({ flagged: fc.option(fc.boolean(), { nil: null }), body: nullable(STRINGS) }), { maxLength: 3 }),
  }),
  { minLength: 1, maxLength: 8 },
);

const LEAF: fc.Arbitrary<RecordCondition> = fc.oneof(
  fc.record({ title: fc.oneof(fc.constantFrom(...STRINGS), fc.constant(null), fc.record({ ne: fc.constantFrom(...STRINGS) }), fc.record({ in: fc.subarray(STRINGS) }), fc.record({ nin: fc.subarray(STRINGS) })) }),
  fc.record({ score: fc.oneof(fc.record({ lt: fc.constantFrom(...INTEGERS, 3000000000) }), fc.record({ gte: fc.constantFrom(...INTEGERS) }), fc.record({ null: fc.boolean() })) }),
  fc.record({ pinned: fc.oneof(fc.boolean(), fc.record({ ne: fc.boolean() })) }),
  fc.record({ author_id: fc.constant({ context: 'user.id' }) }),
  fc.constantFrom<RecordCondition>({ comments: { some: {} } }, { comments: { none: {} } }, { comments: { every: {} } }),
  fc.constantFrom<RecordCondition>(
    { comments: { every: { flagged: false } } },
    { comments: { none: { flagged: true } } },
    { comments: { some: { body: { ne: 'a' } } } },
    { author: { some: { name: 'a' } } },
    { author: { every: { name: { ne: 'A' } } } },
  ),
);

const CONDITION: fc.Arbitrary<RecordCondition> = fc.letrec<{ node: RecordCondition }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    LEAF,
    fc.record({ not: tie('node') }),
    fc.record({ and: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ or: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
  ),
})).node;

let database: TestDatabase;
let db: Kysely<Record<string, Record<string, unknown>>>;

beforeAll(async () => {
  database = await createEmptyDatabase();
  db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.ownerUrl, max: 1 }) }) });
  await sql`create table users (id integer primary key, name text)`.execute(db);
  await sql`create table posts (id integer primary key, title text, author_id integer, score integer, pinned boolean)`.execute(db);
  await sql`create table comments (id serial primary key, post_id integer, flagged boolean, body text)`.execute(db);
  await sql`insert into users values (1, 'a'), (2, 'A')`.execute(db);
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

interface PostFixture {
  title: string | null;
  author_id: number | null;
  score: number | null;
  pinned: boolean | null;
  comments: { flagged: boolean | null; body: string | null }[];
}

/** The rows in SQL, and which of them the condition lets through there and in memory. */
async function bothWays(condition: RecordCondition, rows: PostFixture[]) {
  const catalog = createConditionCatalog(Object.values(MODELS), { posts: { generated: condition } });
  const context = conditionContext({ user: { id: 1 }, organization: null, routeGroup: null });
  const ability = compileAbility(['posts.update:generated'], { catalog, context });
  await sql`truncate posts, comments`.execute(db);
  const inMemory: number[] = [];
  for (const [index, record] of rows.entries()) {
    const id = index + 1;
    await sql`insert into posts values (${id}, ${record.title}, ${record.author_id}, ${record.score}, ${record.pinned})`.execute(db);
    for (const comment of record.comments) await sql`insert into comments (post_id, flagged, body) values (${id}, ${comment.flagged}, ${comment.body})`.execute(db);
    const author = record.author_id === null ? null : { id: record.author_id, name: record.author_id === 1 ? 'a' : 'A' };
    if (ability.can('update', subject('posts', { id, ...record, author }))) inMemory.push(id);
  }
  const resolved = resolveCondition(catalog.condition('posts', 'generated')!, context);
  const filtered = await db.selectFrom('posts').select('id').where(conditionSql(resolved, posts, (slug) => MODELS[slug]!, 'posts')).orderBy('id').execute();
  return { inSql: filtered.map((row) => row.id as number), inMemory };
}

describe('record conditions: the SQL list and the in-memory check agree', () => {
  it('on every generated condition and hostile row (seeded)', async () => {
    await fc.assert(
      fc.asyncProperty(CONDITION, ROWS, async (condition, rows) => {
        const { inSql, inMemory } = await bothWays(condition, rows);
        expect(inSql).toEqual(inMemory);
      }),
      { seed: 35, numRuns: 60 },
    );
  });

  it('answers every on an empty relation as true both ways (CASL issue 1073)', async () => {
    const rows: PostFixture[] = [{ title: 'a', author_id: 1, score: 1, pinned: false, comments: [] }, { title: 'a', author_id: 1, score: 1, pinned: false, comments: [{ flagged: true, body: 'a' }] }];
    expect(await bothWays({ comments: { every: { flagged: false } } }, rows)).toEqual({ inSql: [1], inMemory: [1] });
  });

  it('answers not (a = x) on NULL as true both ways, and an ordering on NULL as false', async () => {
    const rows: PostFixture[] = [{ title: null, author_id: null, score: null, pinned: null, comments: [] }];
    expect(await bothWays({ not: { title: 'a' } }, rows)).toEqual({ inSql: [1], inMemory: [1] });
    expect(await bothWays({ score: { lt: 10 } }, rows)).toEqual({ inSql: [], inMemory: [] });
    expect(await bothWays({ not: { score: { lt: 10 } } }, rows)).toEqual({ inSql: [1], inMemory: [1] });
    expect(await bothWays({ author_id: { context: 'user.id' } }, rows)).toEqual({ inSql: [], inMemory: [] });
  });
});
