// The baseline of `npm run bench -- http` that talks to PostgreSQL as Gatehouse did before its
// reads went to one round trip: BEGIN with the opening in one simple query, then, once the
// caller's permission is known, each data statement as a named prepared statement, then COMMIT
// (three round trips for show, four for an index page with its total).
import type pg from 'pg';
import type { OpeningRow } from './request-opening.js';
import { serveMinimalEndpoint, type RequestTransaction } from './minimal-endpoint.js';

const stepByStep: RequestTransaction = async (client, opening, statements, refusal) => {
  const opened = (await client.query(`BEGIN; ${opening}`)) as unknown as pg.QueryResult[];
  const refused = refusal(opened[1]!.rows[0] as OpeningRow);
  if (refused !== null) {
    await client.query('ROLLBACK');
    return refused;
  }
  const rows = [];
  for (const statement of statements) rows.push((await client.query(statement)).rows);
  await client.query('COMMIT');
  return rows;
};

await serveMinimalEndpoint(stepByStep);
