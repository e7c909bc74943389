import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkServiceLogin } from '../../../../server/db/connection/service-login-check.js';
import { openDatabase } from '../../../../server/db/connection/database.js';
import { UnreadableStylesError } from '../../../../server/db/connection/unreadable-styles-error.js';
import { httpErrorFor } from '../../../../server/http/http-error-for.js';
import { ConfigError } from '../../../../server/errors/config-error.js';
import { createTestDatabase, type TestDatabase } from '../../../support/database.js';
import { queryOnce } from '../../../support/query.js';

// node-postgres reads timestamps in the ISO style only: under any other a stored instant would
// be answered as null, and a client writing the record back would store that.
let testDb: TestDatabase;
const silent = pino({ level: 'silent' });
const check = () => checkServiceLogin({ connectionString: testDb.ownerUrl }, true, silent);

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterAll(async () => {
  await testDb.drop();
});

describe('a database whose sessions write dates or intervals in another style', () => {
  it('is refused at start-up, with the statements that fix it for the login', async () => {
    await expect(check()).resolves.toBeDefined();
    await queryOnce(testDb.ownerUrl, `ALTER DATABASE ${testDb.name} SET DateStyle = 'SQL, DMY'`);
    await queryOnce(testDb.ownerUrl, `ALTER DATABASE ${testDb.name} SET IntervalStyle = 'iso_8601'`);
    const refusal = await check().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as Error).message).toMatch(/^The database's sessions write DateStyle 'SQL, DMY' and IntervalStyle 'iso_8601', which Gatehouse would read as wrong or missing values\. Set them for the service's login: ALTER ROLE "[^"]+" SET DateStyle = 'ISO, MDY'; ALTER ROLE "[^"]+" SET IntervalStyle = 'postgres';$/);
    await queryOnce(testDb.ownerUrl, `ALTER DATABASE ${testDb.name} SET DateStyle = 'ISO, DMY'`);
    await queryOnce(testDb.ownerUrl, `ALTER DATABASE ${testDb.name} RESET IntervalStyle`);
    await expect(check()).resolves.toBeDefined();
  });
});

describe('a default style changed while the service runs', () => {
  // The start-up check cannot see it: it reaches the connections the pool opens after it.
  it('refuses the connections opened after it (503), rather than read their timestamps as null', async () => {
    const instant = sql<{ at: Date | null }>`SELECT TIMESTAMPTZ '2026-11-28 12:00:00+00' AS at`;
    const before = openDatabase({ connectionString: testDb.ownerUrl, maxConnections: 1 });
    const after = openDatabase({ connectionString: testDb.ownerUrl, maxConnections: 1 });
    try {
      expect((await instant.execute(before.db)).rows).toEqual([{ at: new Date('2026-11-28T12:00:00Z') }]);
      await queryOnce(testDb.ownerUrl, `ALTER DATABASE ${testDb.name} SET DateStyle = 'SQL, DMY'`);
      const refusal = await instant.execute(after.db).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(UnreadableStylesError);
      expect((refusal as Error).message).toMatch(/^The database's sessions write DateStyle 'SQL, DMY', which Gatehouse would read as wrong or missing values\. Set it for the service's login: ALTER ROLE "[^"]+" SET DateStyle = 'ISO, MDY';$/);
      expect(httpErrorFor(refusal)?.status).toBe(503);
      expect((await instant.execute(before.db)).rows).toEqual([{ at: new Date('2026-11-28T12:00:00Z') }]);
    } finally {
      await queryOnce(testDb.ownerUrl, `ALTER DATABASE ${testDb.name} RESET DateStyle`);
      await Promise.all([before.close(), after.close()]);
    }
  });
});
