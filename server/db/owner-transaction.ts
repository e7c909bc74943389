import pg from 'pg';
import { inTransaction } from './in-transaction.js';

/** Runs fn in one transaction on a fresh connection of the owner (superuser or migrating role). */
export async function inOwnerTransaction<T>(ownerConnectionString: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ownerConnectionString });
  await client.connect();
  try {
    return await inTransaction(client, () => fn(client));
  } finally {
    await client.end();
  }
}
