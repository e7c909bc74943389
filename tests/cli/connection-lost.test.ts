import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../harness/cli.js';
import { migrate } from '../../server/db/migrations/migrations.js';
import { createEmptyDatabase, type TestDatabase } from '../support/database.js';
import { queryOnce } from '../support/query.js';

// A Node process loading TypeScript: slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

let db: TestDatabase;
let dir: string;

beforeAll(async () => {
  db = await createEmptyDatabase();
  await migrate(db.ownerUrl);
  dir = await mkdtemp(join(tmpdir(), 'gatehouse-connection-lost-'));
  await writeFile(join(dir, '001_notes.sql'), 'CREATE TABLE notes (body text);');
});

afterAll(async () => {
  await db?.drop();
  await rm(dir, { recursive: true, force: true });
});

/**
 * The backend of another session that waits for a lock `holder` holds, once there is one. Asked
 * outside the holder's transaction, which would see the sessions as they were when it began.
 */
async function waiterOn(holder: pg.Client): Promise<number> {
  const { rows: [held] } = await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  for (;;) {
    const [waiter] = await queryOnce<{ pid: number }>(db.ownerUrl, 'SELECT pid FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [held!.pid]);
    if (waiter) return waiter.pid;
  }
}

describe('a command whose database connection is ended under it', () => {
  // Migrating processes wait for each other without limit: this session holds the lock they take
  // turns on, so `gatehouse migrate` is still running when its connection is terminated.
  it('fails with one line naming the loss, no stack trace, exit 1', async () => {
    const holder = new pg.Client({ connectionString: db.ownerUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE gatehouse_migrations IN SHARE ROW EXCLUSIVE MODE');
      const run = runCli(['migrate', '--dir', dir], db.ownerUrl);
      await holder.query('SELECT pg_terminate_backend($1)', [await waiterOn(holder)]);
      expect(await run).toEqual({ code: 1, stdout: '', stderr: 'database connection lost: terminating connection due to administrator command\n' });
    } finally {
      await holder.end();
    }
    expect(await migrate(db.ownerUrl, { dir })).toEqual(['app/001_notes.sql']);
  });
});
