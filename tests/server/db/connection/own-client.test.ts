import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OwnClient } from '../../../../server/db/connection/own-client.js';
import { ConnectionLostError } from '../../../../server/errors/connection-lost-error.js';
import { createEmptyDatabase, type TestDatabase } from '../../../support/database.js';
import { queryOnce } from '../../../support/query.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createEmptyDatabase();
});

afterAll(() => db?.drop());

describe("a command's own connection", () => {
  // Unlistened, the 'error' event would be an uncaught exception here, failing the run.
  it('ended by the server while idle fails its next statement with the reason, crashing nothing', async () => {
    const client = new OwnClient({ connectionString: db.ownerUrl });
    await client.connect();
    try {
      const { rows: [own] } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      // Not events.once: it would take the 'error' event for its own and reject.
      const ended = new Promise((resolve) => client.once('end', resolve));
      await queryOnce(db.ownerUrl, 'SELECT pg_terminate_backend($1)', [own!.pid]);
      await ended;
      expect(client.lost).toBe(true);
      await expect(client.query('SELECT 1')).rejects.toThrow(new ConnectionLostError('terminating connection due to administrator command'));
    } finally {
      await client.end();
    }
  });
});
