// The floor of `npm run bench -- http`: the minimal endpoint with its whole transaction in one
// simple-protocol message (BEGIN; the opening; the data statements; COMMIT), one round trip for
// show and for an index page with its total alike. The data statements run whatever the opening
// finds: row-level security shows nothing until the opening has set the tenant, and the rows are
// dropped here unless the caller's permission allows. A simple query takes no parameters, so each
// value goes in as a literal, and only a safe integer may.
import type pg from 'pg';
import type { OpeningRow } from './request-opening.js';
import { serveMinimalEndpoint, type RequestTransaction, type Statement } from './minimal-endpoint.js';

function integerLiteral(value: number | undefined): string {
  if (value === undefined || !Number.isSafeInteger(value)) throw new TypeError(`Not an integer parameter: ${String(value)}`);
  return String(value);
}

const inlined = (statement: Statement) => statement.text.replace(/\$(\d+)/g, (_, index: string) => integerLiteral(statement.values[Number(index) - 1]));

const oneMessage: RequestTransaction = async (client, opening, statements, refusal) => {
  const results = (await client.query(['BEGIN', opening, ...statements.map(inlined), 'COMMIT'].join('; '))) as unknown as pg.QueryResult[];
  return refusal(results[1]!.rows[0] as OpeningRow) ?? results.slice(2, -1).map((result) => result.rows);
};

await serveMinimalEndpoint(oneMessage);
