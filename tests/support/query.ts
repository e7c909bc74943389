import pg from 'pg';

/** One statement on a short-lived connection: cluster housekeeping and owner-side checks. */
export async function queryOnce<R extends pg.QueryResultRow = pg.QueryResultRow>(
  connectionString: string,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}
