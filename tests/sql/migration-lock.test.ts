import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('names the analyst session whose open transaction a migration waits on, instead of waiting forever', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gatehouse-migration-lock-'));
    try {
      await writeFile(join(dir, '001_add_column.sql'), 'ALTER TABLE posts ADD COLUMN pinned boolean;');
      await session.query('BEGIN');
      try {
        await session.query('SELECT count(*) FROM posts');
        const pid = (await session.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
        await expect(migrate(testDb.ownerUrl, { dir, lockTimeoutMs: 300 })).rejects.toThrow(
          `Migration app/001_add_column.sql failed and was rolled back: it waited 0.3 s for a lock held by backend ${pid} (role ${analyst.role}, idle in transaction); end that session (SELECT pg_terminate_backend(${pid})) or let it finish, then migrate again.`,
        );
      } finally {
        await session.query('ROLLBACK');
      }
      expect(await migrate(testDb.ownerUrl, { dir })).toEqual(['app/001_add_column.sql']);
    } finally {
      await rm(dir, { recursive: true, force: true });
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
