import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROW_TYPES } from '../../../server/db/connection/row-types.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

// A data write's audit row is written in SQL, in the write's own statement (sql/017_audit_values.sql,
// sql/023_audit_infinite_dates_and_arrays.sql); before, Node wrote it: each column as the service's pool
// parses it (ROW_TYPES), through JSON.stringify. The two must store the same JSON, column type by
// column type, in the time zone the Node process reads dates in.

let database: TestDatabase;
let client: pg.Client;

const COLUMNS = `
  id integer, stamp timestamptz, local_stamp timestamp, day date, big bigint, amount numeric, ratio real, measure double precision,
  blob bytea, doc json, docb jsonb, flags boolean[], days date[], stamps timestamptz[], bigs bigint[], amounts numeric[], grid integer[][],
  names text[], spot point, ring circle, label text, ok boolean, moment stamp_domain, nothing text, empty integer[]`;

// Values pg's parsers and Date treat in their own way: microseconds Date truncates, years before
// 100 and past 9999, infinities (kept as text in a timestamp or a date, alone or in an array) and NaN, bigints past 2^53, a date on a zone's shift, domains, arrays.
const ROWS = [
  `1, '2026-11-26 01:36:04.029+00', '2026-03-08 02:30:00.5', '2026-03-29', 9007199254740993, 1.50, 0.1, 1e21,
   '\\x00ff10', '{"b": 1, "a": [1, 2]}', '{"b": 1, "a": {"y": null}}', '{true,NULL}', '{2026-01-01,NULL}', '{"2026-11-26 01:36:04.123456+02"}',
   '{1,9007199254740993}', '{1.50,2}', '{{1,2},{3,4}}', '{"a b",NULL}', '(1.5,-2)', '<(1,2),3.25>', 'x', false, '1999-12-31 23:59:59.999999+00', NULL, '{}'`,
  `2, 'infinity', '-infinity', 'infinity', -1, 'NaN', 'Infinity', '-Infinity',
   '\\x', 'null', '[]', '{}', '{-infinity,NULL}', '{infinity,-infinity}', '{}', '{NaN}', '{}', '{}', '(0,0)', '<(0,0),0>', '', true, '12345-06-07 08:09:10.011+00', NULL, NULL`,
  `3, '0099-01-01 00:00:00.000999+00', '1970-01-01 00:00:00', '1900-02-28', 0, 0.000001, 3.4e38, 5e-324,
   '\\x41', '{"a": 1, "a": 2}', '"text"', NULL, '{{2026-01-01}}', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL`,
  `4, ${'NULL, '.repeat(21)}'-infinity', NULL, NULL`,
];

beforeAll(async () => {
  database = await createTestDatabase();
  client = new pg.Client({ connectionString: database.ownerUrl, types: ROW_TYPES });
  await client.connect();
  await client.query('CREATE DOMAIN stamp_domain AS timestamptz');
  await client.query(`CREATE TABLE audited (${COLUMNS})`);
  for (const row of ROWS) await client.query(`INSERT INTO audited VALUES (${row})`);
});

afterAll(async () => {
  await client.end();
  await database.drop();
});

/** Each row as Node wrote it, and as SQL writes it, both stored as jsonb. */
async function bothWays(zone: string) {
  const { rows } = await client.query('SELECT * FROM audited ORDER BY id');
  const { rows: compared } = await client.query<{ id: number; node: unknown; sql: unknown; same: boolean }>(
    `SELECT id, node, in_sql AS sql, node = in_sql AS same
       FROM (SELECT a.id, n.node, gatehouse_audit_values('audited'::regclass, to_jsonb(a), $2) AS in_sql
               FROM audited a JOIN jsonb_array_elements($1::jsonb) AS n(node) ON (n.node ->> 'id')::int = a.id) AS pairs
      ORDER BY id`,
    [JSON.stringify(rows), zone],
  );
  return compared;
}

describe('audit values written in SQL', () => {
  it('are the JSON Node wrote for every column type it parses, row by row', async () => {
    for (const row of await bothWays(Intl.DateTimeFormat().resolvedOptions().timeZone)) {
      expect(row.sql, `row ${row.id}`).toEqual(row.node);
      expect(row.same).toBe(true);
    }
  });

  it('keep an infinite timestamp or date as its text, alone or inside an array, as the pool reads it', async () => {
    const second = (await bothWays('UTC')).find((row) => row.id === 2)!;
    for (const side of [second.node, second.sql]) {
      expect(side).toMatchObject({ stamp: 'infinity', local_stamp: '-infinity', day: 'infinity', days: ['-infinity', null], stamps: ['infinity', '-infinity'] });
    }
  });

  it('read a timestamp without time zone and a date in the Node process’s zone, as pg does', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Europe/Paris';
    try {
      const [first] = await bothWays('Europe/Paris');
      expect(first!.sql).toEqual(first!.node);
      expect((first!.sql as Record<string, unknown>).day).toBe('2026-03-28T23:00:00.000Z');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('keep what only an update changed, on both sides', async () => {
    const { rows } = await client.query<{ old_values: unknown; new_values: unknown }>(
      `SELECT * FROM gatehouse_audit_changes('{"id": 1, "title": "Old", "body": null, "big": "1"}', '{"id": 1, "title": "New", "body": null, "big": "2"}')`,
    );
    expect(rows[0]).toEqual({ old_values: { title: 'Old', big: '1' }, new_values: { title: 'New', big: '2' } });
    const { rows: unchanged } = await client.query(`SELECT * FROM gatehouse_audit_changes('{"id": 1}', '{"id": 1}')`);
    expect(unchanged[0]).toEqual({ old_values: {}, new_values: {} });
  });
});
