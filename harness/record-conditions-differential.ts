import { createMongoAbility, subject, type AnyMongoAbility } from '@casl/ability';
import { unpackRules } from '@casl/ability/extra';
import fc from 'fast-check';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { compileAbility, conditionContext, createConditionCatalog, packAbilityRules, resolveCondition, type GatehouseAbility, type RecordCondition } from '@gatehouse/engine';
import { ROW_TYPES } from '../server/db/connection/row-types.js';
import { conditionSql } from '../server/listing/condition-sql.js';
import { defineModel, type ModelDefinition } from '../server/models/define-model.js';

// Issue 35's differential check, shared by the seeded test (tests/server/listing) and its long
// version (`npm run bench -- record-rules`): for generated conditions and hostile rows, the SQL
// filter holds a row exactly when the in-memory CASL check allows it, on the row as the server
// reads it from PostgreSQL and on its JSON as the browser receives it.

export type DifferentialDatabase = Kysely<Record<string, Record<string, unknown>>>;

/** A connection to an empty database that reads rows as the service does. */
export function openDifferentialDatabase(ownerUrl: string): DifferentialDatabase {
  const pool = new pg.Pool({ connectionString: ownerUrl, max: 1, types: ROW_TYPES });
  // Dropping the database right after may end the connection before the pool has let it go.
  pool.on('error', () => {});
  return new Kysely({ dialect: new PostgresDialect({ pool }) });
}

const posts = defineModel({
  slug: 'posts',
  tenantOwned: false,
  attributes: { title: 'string', code: 'string', author_id: 'integer', score: 'integer', pinned: 'boolean', published_at: 'timestamp', starts_at: 'timestamp', tags: 'string[]' },
  fillable: [],
  relations: { comments: { kind: 'hasMany', model: 'comments', foreignKey: 'post_id' }, author: { kind: 'belongsTo', model: 'users', foreignKey: 'author_id' } },
});
const comments = defineModel({ slug: 'comments', tenantOwned: false, attributes: { post_id: 'integer', flagged: 'boolean', body: 'string' }, fillable: [] });
const users = defineModel({ slug: 'users', tenantOwned: false, attributes: { name: 'string' }, fillable: [] });
export const DIFFERENTIAL_MODELS: Readonly<Record<string, ModelDefinition>> = { posts, comments, users };

/** Case, `%` and `_`, a precomposed and a decomposed é (equal under a case-insensitive ICU collation), the empty string. */
export const HOSTILE_STRINGS = ['a', 'A', '%', '_', 'a%', 'é', 'e\u0301', 'É', ''];
/** The edges of int4, whose conditions compare as bigint (3,000,000,000 is one past them). */
export const HOSTILE_INTEGERS = [0, 1, -1, 7, 2147483647, -2147483648];
/**
 * Instants at time-zone edges: midnight UTC and its neighbours, a day that starts at another
 * hour in other zones, both DST changes of Europe and the US, a year boundary, the epoch, and
 * PostgreSQL's infinities. `published_at` is a timestamptz, `starts_at` a timestamp without time
 * zone (node-postgres reads it in the server's own zone).
 */
export const HOSTILE_TIMESTAMPS = [
  '2024-01-01T00:00:00Z',
  '2023-12-31T23:59:59.999999Z',
  '2024-01-01T00:00:00+14:00',
  '2023-12-31T23:00:00-12:00',
  '2024-03-31T01:00:00Z',
  '2024-03-31T02:30:00+02:00',
  '2024-10-27T01:30:00+01:00',
  '2024-03-10T02:30:00-05:00',
  '2024-11-03T01:30:00-04:00',
  '1970-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
  'infinity',
  '-infinity',
];
/** Lists that are not NULL though CASL's `$eq: null` would take some for it: empty, or holding NULL. */
export const HOSTILE_LISTS = [[], [null], ['a', null], ['a'], ['']];

const nullable = <T>(values: readonly T[]) => fc.option(fc.constantFrom(...values), { nil: null });

export interface PostFixture {
  title: string | null;
  code: string | null;
  author_id: number | null;
  score: number | null;
  pinned: boolean | null;
  published_at: string | null;
  starts_at: string | null;
  tags: (string | null)[] | null;
  comments: { flagged: boolean | null; body: string | null }[];
}

/** A table's rows, between `minLength` and `maxLength` of them. */
export const hostileRows = ({ minLength = 1, maxLength = 8 } = {}): fc.Arbitrary<PostFixture[]> =>
  fc.array(
    fc.record({
      title: nullable(HOSTILE_STRINGS),
      code: nullable(HOSTILE_STRINGS),
      author_id: fc.option(fc.constantFrom(1, 2), { nil: null }),
      score: nullable(HOSTILE_INTEGERS),
      pinned: fc.option(fc.boolean(), { nil: null }),
      published_at: nullable(HOSTILE_TIMESTAMPS),
      starts_at: nullable(HOSTILE_TIMESTAMPS),
      tags: nullable(HOSTILE_LISTS),
      comments: fc.array(fc.record({ flagged: fc.option(fc.boolean(), { nil: null }), body: nullable(HOSTILE_STRINGS) }), { maxLength: 3 }),
    }),
    { minLength, maxLength },
  );

const text = (attribute: 'title' | 'code') =>
  fc.record({
    [attribute]: fc.oneof(
      fc.constantFrom(...HOSTILE_STRINGS),
      fc.constant(null),
      fc.record({ ne: fc.constantFrom(...HOSTILE_STRINGS) }),
      fc.record({ in: fc.subarray(HOSTILE_STRINGS) }),
      fc.record({ nin: fc.subarray(HOSTILE_STRINGS) }),
    ),
  });

const LEAF: fc.Arbitrary<RecordCondition> = fc.oneof(
  text('title'),
  text('code'),
  fc.record({ score: fc.oneof(fc.constantFrom(...(['lt', 'lte', 'gt', 'gte', 'eq', 'ne'] as const)).chain((op) => fc.record({ [op]: fc.constantFrom(...HOSTILE_INTEGERS, 3000000000) })), fc.record({ null: fc.boolean() })) }),
  fc.record({ pinned: fc.oneof(fc.boolean(), fc.record({ ne: fc.boolean() })) }),
  fc.record({ author_id: fc.constant({ context: 'user.id' }) }),
  // Timestamps take null checks only (docs/guides/record-rules.md): what they may be tested for.
  fc.record({ published_at: fc.oneof(fc.constant(null), fc.record({ null: fc.boolean() })) }),
  fc.record({ starts_at: fc.oneof(fc.constant(null), fc.record({ null: fc.boolean() })) }),
  fc.record({ tags: fc.oneof(fc.constant(null), fc.record({ null: fc.boolean() }), fc.record({ eq: fc.constant(null) }), fc.record({ ne: fc.constant(null) })) }),
  fc.constantFrom<RecordCondition>({ comments: { some: {} } }, { comments: { none: {} } }, { comments: { every: {} } }),
  fc.constantFrom<RecordCondition>(
    { comments: { every: { flagged: false } } },
    { comments: { none: { flagged: true } } },
    { comments: { some: { body: { ne: 'a' } } } },
    { author: { some: { name: 'a' } } },
    { author: { every: { name: { ne: 'A' } } } },
  ),
);

export const generatedCondition: fc.Arbitrary<RecordCondition> = fc.letrec<{ node: RecordCondition }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    LEAF,
    fc.record({ not: tie('node') }),
    fc.record({ and: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ or: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
  ),
})).node;

/**
 * The tables, in a database of their own. `code` has a case- and accent-insensitive ICU
 * collation, under which PostgreSQL's `=` holds 'a' equal to 'A' and 'é' to 'e\u0301'.
 */
export async function createDifferentialTables(db: DifferentialDatabase): Promise<void> {
  await sql`create collation insensitive (provider = icu, locale = 'und-u-ks-level1', deterministic = false)`.execute(db);
  await sql`create table users (id integer primary key, name text)`.execute(db);
  await sql`create table posts (id integer primary key, title text, code text collate insensitive, author_id integer, score integer, pinned boolean, published_at timestamptz, starts_at timestamp, tags text[])`.execute(db);
  await sql`create table comments (id serial primary key, post_id integer, flagged boolean, body text)`.execute(db);
  await sql`insert into users values (1, 'a'), (2, 'A')`.execute(db);
}

/**
 * Which rows each side lets through: the SQL filter, the server's check on the rows it read, and
 * the browser's on their JSON; then the same for the condition as an exclusion carved from a plain
 * grant (`!posts.update:generated`), which lets through exactly the rows the SQL filter holds not.
 * `inDefault` and `excludedInDefault` are CASL's answers with its default options
 * (`createMongoAbility(unpackRules(rules))`), where the rules need none of Gatehouse's operators
 * (docs/guides/record-rules.md), else null.
 */
export interface Answers {
  inSql: number[];
  inMemory: number[];
  inBrowser: number[];
  inDefault: number[] | null;
  excludedInSql: number[];
  excludedInMemory: number[];
  excludedInBrowser: number[];
  excludedInDefault: number[] | null;
}

// The operators only Gatehouse's conditions matcher reads as record conditions mean them.
const GATEHOUSE_OPERATORS = /"\$(and|or|nor|elemMatch)"/;

/** The ability as a CASL app with default options rebuilds it from the packed rules, where they need nothing more. */
function defaultAbility(ability: GatehouseAbility): AnyMongoAbility | null {
  const packed = packAbilityRules(ability);
  return GATEHOUSE_OPERATORS.test(JSON.stringify(packed)) ? null : createMongoAbility(unpackRules(packed));
}

/** The rows in SQL, and which of them the condition lets through there and in memory. */
export async function bothWays(db: DifferentialDatabase, condition: RecordCondition, rows: readonly PostFixture[]): Promise<Answers> {
  const catalog = createConditionCatalog(Object.values(DIFFERENTIAL_MODELS), { posts: { generated: condition } });
  const context = conditionContext({ user: { id: 1 }, organization: null, routeGroup: null });
  const granting = compileAbility(['posts.update:generated'], { catalog, context });
  const excluding = compileAbility(['posts.update', '!posts.update:generated'], { catalog, context });
  await sql`truncate posts, comments`.execute(db);
  await db.insertInto('posts').values(rows.map(({ comments: _, ...post }, index) => ({ id: index + 1, ...post }))).execute();
  const written = rows.flatMap((post, index) => post.comments.map((comment) => ({ post_id: index + 1, ...comment })));
  if (written.length > 0) await db.insertInto('comments').values(written).execute();
  const read = await db.selectFrom('posts').selectAll().orderBy('id').execute();
  const children = await db.selectFrom('comments').selectAll().orderBy('id').execute();
  const authors = await db.selectFrom('users').selectAll().execute();
  const records = read.map((post) => ({
    ...post,
    comments: children.filter((comment) => comment.post_id === post.id),
    author: authors.find((author) => author.id === post.author_id) ?? null,
  }));
  const browserRecords = JSON.parse(JSON.stringify(records)) as Record<string, unknown>[];
  const ids = (ability: AnyMongoAbility, list: Record<string, unknown>[]) => list.filter((record) => ability.can('update', subject('posts', record))).map((record) => record.id as number);
  const resolved = resolveCondition(catalog.condition('posts', 'generated')!, context);
  const filtered = await db.selectFrom('posts').select('id').where(conditionSql(resolved, posts, (slug) => DIFFERENTIAL_MODELS[slug]!, 'posts')).orderBy('id').execute();
  const inSql = filtered.map((row) => row.id as number);
  const [grantingDefault, excludingDefault] = [defaultAbility(granting), defaultAbility(excluding)];
  return {
    inSql,
    inMemory: ids(granting, records),
    inBrowser: ids(granting, browserRecords),
    inDefault: grantingDefault && ids(grantingDefault, browserRecords),
    excludedInSql: read.map((post) => post.id as number).filter((id) => !inSql.includes(id)),
    excludedInMemory: ids(excluding, records),
    excludedInBrowser: ids(excluding, browserRecords),
    excludedInDefault: excludingDefault && ids(excludingDefault, browserRecords),
  };
}
