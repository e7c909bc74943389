import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isIsoTimestamp } from '../../../server/models/iso-timestamp.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

let testDb: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  testDb = await createTestDatabase();
  client = new pg.Client({ connectionString: testDb.ownerUrl });
  await client.connect();
});

afterAll(async () => {
  await client.end();
  await testDb.drop();
});

const postgresTakes = async (value: string) => {
  try {
    await client.query('SELECT $1::timestamptz', [value]);
    return true;
  } catch {
    return false;
  }
};

const digits = (length: number, max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(length, '0'));

/** Strings shaped like ISO 8601 with every field free to leave its range. */
const isoLike = fc
  .tuple(
    digits(4, 9999),
    digits(2, 19),
    digits(2, 39),
    fc.option(fc.tuple(fc.constantFrom('T', ' '), digits(2, 29), digits(2, 69), fc.option(digits(2, 69)), fc.option(fc.constantFrom('.5', '.123456'))), { nil: undefined }),
    fc.option(fc.oneof(fc.constant('Z'), fc.tuple(fc.constantFrom('+', '-'), digits(2, 19), fc.constantFrom('', ':30', '45', ':75'))), { nil: undefined }),
  )
  .map(([year, month, day, time, zone]) => {
    const clock = time ? `${time[0]}${time[1]}:${time[2]}${time[3] === null ? '' : `:${time[3]}${time[4] ?? ''}`}` : '';
    const offset = !time || zone === undefined ? '' : typeof zone === 'string' ? zone : zone.join('');
    return `${year}-${month}-${day}${clock}${offset}`;
  });

describe('isIsoTimestamp', () => {
  it.each(['2024-02-29', '2024-02-29T10:00', '2024-02-29 10:00:00+02', '2024-02-29T10:00:00.123456Z', '2024-01-01T10:00:00+0530'])('takes %s', (value) => {
    expect(isIsoTimestamp(value)).toBe(true);
  });

  it.each(['1', '2024', 'abc', '2024-02-30', '2023-02-29', '2024-13-01', '0000-01-01', '2024-01-01T24:00', '2024-1-01', '2024-01-01T10:00:00+16'])('refuses %s', (value) => {
    expect(isIsoTimestamp(value)).toBe(false);
  });

  it('takes only what PostgreSQL takes as a timestamptz, so a filter value never fails its statement', async () => {
    await fc.assert(
      fc.asyncProperty(isoLike, async (value) => {
        if (isIsoTimestamp(value)) expect(await postgresTakes(value)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});
