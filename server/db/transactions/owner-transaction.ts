import type pg from 'pg';
import { OwnClient } from '../connection/own-client.js';

/** Runs fn in one transaction on a fresh connection of the owner (superuser or migrating role). */
export async function inOwnerTransaction<T>(ownerConnectionString: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new OwnClient({ connectionString: ownerConnectionString });
  await client.connect();
  try {
    return await inTransaction(client, () => fn(client));
  } finally {
    await client.end();
  }
}

/** One transaction on a connection the caller already holds (the migrations run one such transaction per migration). */
export async function inTransaction<T>(client: pg.ClientBase, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}
