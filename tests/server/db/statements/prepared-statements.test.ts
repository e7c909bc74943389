import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoSchema } from '../../../../policies/schema.js';
import { openDatabase } from '../../../../server/db/connection/database.js';
import { PREPARED_PER_CONNECTION } from '../../../../server/db/connection/statement-batch.js';
import { withTenant } from '../../../../server/db/transactions/tenant-transaction.js';
import { createTestDatabase, type TestDatabase } from '../../../support/database.js';
import { demoOrganizationIds } from '../../../support/demo.js';

// One connection, so the statements a query prepared are the ones the next query sees.
let testDb: TestDatabase;
let acme: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
  acme = (await demoOrganizationIds(testDb.ownerUrl)).acme;
});

afterAll(async () => {
  await testDb.drop();
});

async function preparedAfterTwoReads(preparedStatements: boolean) {
  const database = openDatabase<DemoSchema>({ connectionString: testDb.ownerUrl, maxConnections: 1, preparedStatements });
  try {
    const titles = [];
    for (let round = 0; round < 2; round += 1) {
      titles.push(
        await withTenant(database.db, { organizationId: acme, userId: null }, (trx) =>
          trx.selectFrom('posts').select('title').where('organization_id', '=', acme).orderBy('id').execute(),
        ),
      );
    }
    const { rows } = await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(database.db);
    return { titles, prepared: rows };
  } finally {
    await database.close();
  }
}

describe('prepared statements', () => {
  it('are named and parsed once per connection by default', async () => {
    const { titles, prepared } = await preparedAfterTwoReads(true);
    expect(titles[0]!.length).toBeGreaterThan(0);
    expect(titles[1]).toEqual(titles[0]);
    const posts = prepared.filter((row) => row.statement.includes('"posts"'));
    expect(posts).toHaveLength(1);
    expect(posts[0]!.name).toMatch(/^gatehouse_\d+$/);
  });

  it('are never left on the connection when switched off, for transaction poolers', async () => {
    const { titles, prepared } = await preparedAfterTwoReads(false);
    expect(titles[1]).toEqual(titles[0]);
    expect(titles[0]!.length).toBeGreaterThan(0);
    expect(prepared).toEqual([]);
  });

  it('stay within a bound per connection, however many shapes a caller sends, and new ones are still prepared', async () => {
    // A member controls the shape of statements (sorts, filters, includes): past the 2,000 texts
    // the process names, and the 250 one connection keeps, the least recently used go.
    const database = openDatabase({ connectionString: testDb.ownerUrl, maxConnections: 1 });
    const shapes = 2_100;
    const sum = (shape: number) => sql<{ n: number }>`SELECT ${sql.lit(shape)}::int + ${1}::int AS n`.execute(database.db);
    try {
      for (let shape = 0; shape < shapes; shape += 1) await sum(shape);
      const prepared = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(database.db);
      expect(prepared.rows).toHaveLength(PREPARED_PER_CONNECTION);
      const kept = prepared.rows.map((row) => row.statement);
      expect(kept).toContain(`SELECT ${shapes - 1}::int + $1::int AS n`);
      expect(kept).not.toContain('SELECT 0::int + $1::int AS n');
      // A closed shape is parsed again under a name of its own, and answers as before.
      expect((await sum(0)).rows).toEqual([{ n: 1 }]);
      expect((await sum(shapes - 1)).rows).toEqual([{ n: shapes }]);
    } finally {
      await database.close();
    }
  });
});
