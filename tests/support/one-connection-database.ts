import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Database } from '../../server/db/connection/database.js';
import type { Schema } from '../../server/db/schema.js';
import { createTestDatabase, type TestDatabase } from './database.js';

/**
 * A fresh test database and the service's pool over it, with one connection: what a transaction
 * leaves on the connection is what the next one gets. Opened before the file's tests and closed
 * after them; the returned function gives the pool's Kysely.
 */
export function oneConnectionDatabase<S = Schema>(): () => Kysely<S> {
  let testDb: TestDatabase;
  let database: Database<S>;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = openDatabase<S>({ connectionString: testDb.ownerUrl, maxConnections: 1 });
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });
  return () => database.db;
}
