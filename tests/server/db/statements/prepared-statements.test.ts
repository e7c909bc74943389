import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoSchema } from '../../../../policies/schema.js';
import { openDatabase } from '../../../../server/db/connection/database.js';
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
});
