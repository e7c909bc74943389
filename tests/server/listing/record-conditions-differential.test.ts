import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConditionCatalog, InvalidConditionError } from '@gatehouse/engine';
import { bothWays, createDifferentialTables, DIFFERENTIAL_MODELS, generatedCondition, hostileRows, openDifferentialDatabase, type DifferentialDatabase, type PostFixture } from '../../../harness/record-conditions-differential.js';
import { createEmptyDatabase, type TestDatabase } from '../../support/database.js';

// Issue 35: for generated conditions and hostile rows (harness/record-conditions-differential.ts:
// NULLs, empty relations (CASL issue 1073), case and a case-insensitive collation, `%` and `_`,
// integers at the edges of int4, timestamps at time-zone edges), the SQL filter holds a row exactly
// when the in-memory CASL check allows it, on the server and in the browser. The long version:
// `npm run bench -- record-rules`.

let database: TestDatabase;
let db: DifferentialDatabase;

beforeAll(async () => {
  database = await createEmptyDatabase();
  db = openDifferentialDatabase(database.ownerUrl);
  await createDifferentialTables(db);
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const row = (values: Partial<PostFixture>): PostFixture => ({ title: null, code: null, author_id: null, score: null, pinned: null, published_at: null, starts_at: null, comments: [], ...values });
const agreeing = (ids: number[]) => ({ inSql: ids, inMemory: ids, inBrowser: ids });

describe('record conditions: the SQL list and the in-memory check agree', () => {
  it('on every generated condition and hostile row (seeded)', async () => {
    await fc.assert(
      fc.asyncProperty(generatedCondition, hostileRows(), async (condition, rows) => {
        const { inSql, inMemory, inBrowser } = await bothWays(db, condition, rows);
        expect(inMemory).toEqual(inSql);
        expect(inBrowser).toEqual(inSql);
      }),
      { seed: 35, numRuns: 60 },
    );
  });

  it('answers every on an empty relation as true both ways (CASL issue 1073)', async () => {
    const rows = [row({ comments: [] }), row({ comments: [{ flagged: true, body: 'a' }] })];
    expect(await bothWays(db, { comments: { every: { flagged: false } } }, rows)).toEqual(agreeing([1]));
  });

  it('answers not (a = x) on NULL as true both ways, and an ordering on NULL as false', async () => {
    const rows = [row({})];
    expect(await bothWays(db, { not: { title: 'a' } }, rows)).toEqual(agreeing([1]));
    expect(await bothWays(db, { score: { lt: 10 } }, rows)).toEqual(agreeing([]));
    expect(await bothWays(db, { not: { score: { lt: 10 } } }, rows)).toEqual(agreeing([1]));
    expect(await bothWays(db, { author_id: { context: 'user.id' } }, rows)).toEqual(agreeing([]));
  });

  it('compares text byte for byte, even in a column with a case-insensitive collation', async () => {
    const rows = [row({ code: 'a' }), row({ code: 'A' }), row({ code: 'é' }), row({ code: 'e\u0301' })];
    expect(await bothWays(db, { code: 'a' }, rows)).toEqual(agreeing([1]));
    expect(await bothWays(db, { code: { in: ['é'] } }, rows)).toEqual(agreeing([3]));
    expect(await bothWays(db, { code: { nin: ['A', 'é'] } }, rows)).toEqual(agreeing([1, 4]));
    expect(await bothWays(db, { code: { ne: 'A' } }, rows)).toEqual(agreeing([1, 3, 4]));
  });

  it('tells a timestamp at a time-zone edge, or an infinite one, from NULL', async () => {
    const rows = [row({ published_at: '2024-01-01T00:00:00+14:00', starts_at: '2024-03-10T02:30:00-05:00' }), row({ published_at: 'infinity', starts_at: '-infinity' }), row({})];
    expect(await bothWays(db, { published_at: null }, rows)).toEqual(agreeing([3]));
    expect(await bothWays(db, { starts_at: { null: false } }, rows)).toEqual(agreeing([1, 2]));
  });

  it('refuses any comparison of a timestamp, which a Date on the server and a string in the browser would answer apart', () => {
    const edge = '2024-03-31T01:00:00Z';
    for (const test of [edge, { eq: edge }, { ne: edge }, { lt: edge }, { lte: edge }, { gt: edge }, { gte: edge }, { in: [edge] }, { nin: [edge] }, { gte: { context: 'user.id' } }]) {
      for (const attribute of ['published_at', 'starts_at']) {
        expect(() => createConditionCatalog(Object.values(DIFFERENTIAL_MODELS), { posts: { dated: { [attribute]: test } } }), JSON.stringify(test)).toThrow(InvalidConditionError);
      }
    }
  });
});
