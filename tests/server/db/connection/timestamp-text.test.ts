import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../../server/db/connection/database.js';
import { ROW_TYPES } from '../../../../server/db/connection/row-types.js';
import { createEmptyDatabase, type TestDatabase } from '../../../support/database.js';

// The service reads a timestamp's common text by hand (server/db/connection/timestamp-text.ts);
// every value must be the one node-postgres's own parser, postgres-date, makes of the same text.

type Parse = (text: string) => unknown;
const parser = (types: { getTypeParser: (oid: number, format: 'text') => unknown }, oid: number) => types.getTypeParser(oid, 'text') as Parse;
const TIMESTAMPTZ = pg.types.builtins.TIMESTAMPTZ;
const TIMESTAMP = pg.types.builtins.TIMESTAMP;

/** The texts whose value the service's parser for `oid` reads otherwise than postgres-date: a different instant, or a different non-Date. */
function differing(oid: number, texts: readonly string[]): string[] {
  const service = parser(ROW_TYPES, oid);
  const postgresDate = parser(pg.types, oid);
  return texts.filter((text) => {
    const [ours, theirs] = [service(text), postgresDate(text)];
    return ours instanceof Date && theirs instanceof Date ? !Object.is(ours.getTime(), theirs.getTime()) : !Object.is(ours, theirs);
  });
}

// Seeded (mulberry32), so a failure names texts that fail again.
function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return Math.floor((((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32) * below);
  };
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `count` texts as PostgreSQL writes them: years 1000 to 9999, 0 to 6 fraction digits, a zone of hours, minutes or seconds either way, or none. */
function generatedTexts(count: number): string[] {
  const next = random(39);
  return Array.from({ length: count }, () => {
    const year = 1000 + next(9000);
    const month = 1 + next(12);
    const day = 1 + next(new Date(Date.UTC(2000, month, 0)).getUTCDate());
    const digits = next(7);
    const fraction = digits === 0 ? '' : `.${pad(next(10 ** digits), digits)}`;
    const zoneParts = [pad(next(16)), pad(next(60)), pad(next(60))].slice(0, next(4));
    const zone = zoneParts.length === 0 ? '' : `${next(2) ? '-' : '+'}${zoneParts.join(':')}`;
    return `${pad(year, 4)}-${pad(month)}-${pad(day)} ${pad(next(24))}:${pad(next(60))}:${pad(next(60))}${fraction}${zone}`;
  });
}

const EDGES = [
  '2024-02-29 23:59:59+00',
  '2024-02-29 12:00:00.000000-05',
  '2026-11-26 01:36:04.999999+05:30',
  '2026-11-26 01:36:04.9999995+00',
  '1000-01-01 00:00:00+00',
  '9999-12-31 23:59:59.999999-03:30',
  '1800-06-01 12:19:32+00:19:32',
  '2026-03-29 02:30:00',
  '0999-12-31 23:59:59+00',
  '0099-01-01 00:00:00.000999+00',
  '0044-03-15 12:00:00+00 BC',
  '2026-03-15 12:00:00-01 BC',
  '10000-01-01 00:00:00+00',
  '12345-06-07 08:09:10.011+00',
  '2026-11-26',
  '2026-11-26 BC',
  '2026-13-45 25:61:61+00',
  '2026-11-26 01:36:04.+00',
  '2026-11-26 01:36:04+5',
  '2026-11-26 01:36:04+05:3',
  '2026-11-26 01:36:04+05:30:15:00',
  '2026-11-26 01:36:04Z',
  '2026-11-26T01:36:04+00',
  '2026-11-26 01:36:04 +00',
  '2026-11-26 01:36:04+00 ',
  ' 2026-11-26 01:36:04+00',
  '2026-11-26 01:36:04+0530',
  '2026-1x-26 01:36:04+00',
  '20x6-11-26 01:36:04+00',
  '',
  'garbage',
];

describe('a timestamp’s text read by hand', () => {
  it('is the instant postgres-date reads, for thousands of texts PostgreSQL writes', () => {
    const texts = generatedTexts(4000);
    expect(differing(TIMESTAMPTZ, texts)).toEqual([]);
    expect(differing(TIMESTAMP, texts)).toEqual([]);
  });

  it('is what postgres-date reads of every other text: far years, BC, odd zones, garbage', () => {
    expect(differing(TIMESTAMPTZ, EDGES)).toEqual([]);
    expect(differing(TIMESTAMP, EDGES)).toEqual([]);
  });

  it('reads a text without a zone in the Node process’s zone, as postgres-date does', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/St_Johns';
    try {
      expect((parser(ROW_TYPES, TIMESTAMP)('2026-07-01 12:00:00.5') as Date).toISOString()).toBe('2026-07-01T14:30:00.500Z');
      expect(differing(TIMESTAMP, generatedTexts(500))).toEqual([]);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

describe('timestamps read through the service’s pool', () => {
  let testDb: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    testDb = await createEmptyDatabase();
    database = openDatabase({ connectionString: testDb.ownerUrl, maxConnections: 1 });
  });

  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  // The service sets no TimeZone: the session's is the server's, so offsets may be anything,
  // seconds included (local mean time before a zone's standard time).
  it.each(['UTC', 'America/St_Johns', 'Asia/Kathmandu', 'Europe/Amsterdam'])('are postgres-date’s instants in session zone %s, alone and in arrays', async (zone) => {
    const rows = await database.db.transaction().execute(async (trx) => {
      await sql.raw(`SET LOCAL TIME ZONE '${zone}'`).execute(trx);
      const { rows } = await sql<{ stamp: Date; text: string; stamps: Date[]; local: Date; local_text: string }>`
        SELECT stamp, stamp::text AS text, ARRAY[stamp, NULL] AS stamps, stamp::timestamp AS local, stamp::timestamp::text AS local_text
          FROM unnest(ARRAY['2026-11-26 01:36:04.123456+00', '1800-06-01 12:00:00+00', '9999-12-31 23:59:59.999999+00', '0044-03-15 12:00:00+00 BC']::timestamptz[]) AS stamp`.execute(trx);
      return rows;
    });
    const postgresDate = parser(pg.types, TIMESTAMPTZ);
    expect(rows).toHaveLength(4);
    for (const { stamp, text, stamps, local, local_text } of rows) {
      const expected = (postgresDate(text) as Date).getTime();
      expect(stamp, text).toBeInstanceOf(Date);
      expect(stamp.getTime(), text).toBe(expected);
      expect(stamps.map((element) => element?.getTime() ?? null), text).toEqual([expected, null]);
      expect(local.getTime(), local_text).toBe((postgresDate(local_text) as Date).getTime());
    }
    expect(rows[0]!.stamp.toISOString()).toBe('2026-11-26T01:36:04.123Z');
  });
});
