import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrations/migrations.js';
import { createAnalyst, type TestAnalyst } from '../support/analyst.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { dropRoles } from '../support/roles.js';

// Advisory locks need no privilege: any login could take the key migrations waited on, and
// `gatehouse migrate` (so `gatehouse start`) waited forever. An analyst is a real login here.
let testDb: TestDatabase;
let analyst: TestAnalyst;
let session: pg.Client;

beforeAll(async () => {
  testDb = await createTestDatabase();
  analyst = await createAnalyst(testDb.ownerUrl, ['acme']);
  session = new pg.Client({ connectionString: analyst.url });
  await session.connect();
});

afterAll(async () => {
  await session.end();
  await testDb.drop();
  await dropRoles(analyst.role);
});

describe('the migrations lock', () => {
  it('is not held up by an analyst holding the advisory lock migrations once took', async () => {
    await session.query('SELECT pg_advisory_lock(7204118)');
    try {
      expect(await migrate(testDb.ownerUrl)).toEqual([]);
    } finally {
      await session.query('SELECT pg_advisory_unlock_all()');
    }
  });

  it('is one an analyst may not take', async () => {
    await session.query('BEGIN');
    try {
      await expect(session.query('LOCK TABLE public.gatehouse_migrations IN SHARE ROW EXCLUSIVE MODE')).rejects.toThrow(/permission denied/);
    } finally {
      await session.query('ROLLBACK');
    }
  });
});
