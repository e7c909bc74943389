import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionAppLogin } from '../../../../server/db/logins/app-login.js';
import { openDatabase } from '../../../../server/db/connection/database.js';
import type { DemoSchema } from '../../../../policies/schema.js';
import { roleUrl } from '../../../../server/db/logins/role-url.js';
import { withTenant } from '../../../../server/db/transactions/tenant-transaction.js';
import { createAnalyst, type TestAnalyst } from '../../../support/analyst.js';
import { createTestDatabase, type TestDatabase } from '../../../support/database.js';
import { demoOrganizationIds, demoPostTitles } from '../../../support/demo.js';
import { dropRoles, uniqueRoleName } from '../../../support/roles.js';

// The dedicated service login closes the hole an owner URL leaves open: a request's SQL could
// run SET ROLE NONE and be the owner again.
let testDb: TestDatabase;
const role = uniqueRoleName('service');
const reprovisioned = uniqueRoleName('service');
let url: string;
let analyst: TestAnalyst;

beforeAll(async () => {
  testDb = await createTestDatabase();
  const login = await provisionAppLogin(testDb.ownerUrl, role);
  url = roleUrl(testDb.ownerUrl, role, login.generatedPassword ?? undefined);
  analyst = await createAnalyst(testDb.ownerUrl, ['acme']);
});

afterAll(async () => {
  await testDb.drop();
  await dropRoles(role, reprovisioned, analyst.role);
});

describe('a dedicated service login', () => {
  it('serves requests through openDatabase under the same row-level security', async () => {
    const { db, close } = openDatabase<DemoSchema>({ connectionString: url, maxConnections: 1 });
    try {
      const { acme } = await demoOrganizationIds(testDb.ownerUrl);
      const titles = await withTenant(db, { organizationId: acme, userId: null }, (trx) => trx.selectFrom('posts').select('title').orderBy('title').execute());
      expect(titles.map((row) => row.title)).toEqual(demoPostTitles('acme'));
      expect(await db.selectFrom('posts').select('id').execute()).toEqual([]);
    } finally {
      await close();
    }
  });

  it('has no role to escape to', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('SET ROLE NONE');
      expect((await client.query('SELECT current_user::text AS user')).rows).toEqual([{ user: role }]);
      expect((await client.query('SELECT count(*)::int AS n FROM posts')).rows).toEqual([{ n: 0 }]);
      for (const target of ['postgres', 'gatehouse_analyst', analyst.role]) {
        await expect(client.query(`SET ROLE ${target}`), target).rejects.toThrow(/permission denied to set role/);
      }
    } finally {
      await client.end();
    }
  });

  // A login of its own: the other tests log in with the generated password.
  it('gets a new password when provisioned again, and the old one stops working', async () => {
    const first = await provisionAppLogin(testDb.ownerUrl, reprovisioned);
    const url = roleUrl(testDb.ownerUrl, reprovisioned, first.generatedPassword!);
    const again = await provisionAppLogin(testDb.ownerUrl, reprovisioned, 'a-chosen-password-123');
    expect(again).toEqual({ created: false, generatedPassword: null });
    const attempt = async (connectionString: string) => {
      const client = new pg.Client({ connectionString });
      await client.connect();
      await client.end();
    };
    await expect(attempt(url)).rejects.toThrow(/password authentication failed/);
    await attempt(roleUrl(testDb.ownerUrl, reprovisioned, 'a-chosen-password-123'));
  });

  it('is refused for roles that hold more than the service role', async () => {
    await expect(provisionAppLogin(testDb.ownerUrl, analyst.role)).rejects.toThrow(`it is a member of gatehouse_analyst, and may only be one of gatehouse_app`);
    await expect(provisionAppLogin(testDb.ownerUrl, 'postgres')).rejects.toThrow(/bypasses row-level security/);
    await expect(provisionAppLogin(testDb.ownerUrl, 'gatehouse_app')).rejects.toThrow(/not starting with pg_ or gatehouse_/);
    await expect(provisionAppLogin(testDb.ownerUrl, uniqueRoleName('service'), 'short')).rejects.toThrow(/at least 12 printable ASCII/);
  });
});
