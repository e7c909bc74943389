import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.js';
import { withTenant } from '../../server/db/with-tenant.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let testDb: TestDatabase;
let app: Database;
let acme: number;
let globex: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = openDatabase({ connectionString: testDb.ownerUrl, maxConnections: 2 });
  const orgs = await app.db.selectFrom('organizations').select(['id', 'slug']).execute();
  acme = orgs.find((org) => org.slug === 'acme')!.id;
  globex = orgs.find((org) => org.slug === 'globex')!.id;
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const postTitles = (organizationId: number | null) =>
  withTenant(app.db, { organizationId, userId: null }, (trx) => trx.selectFrom('posts').select('title').execute());

describe('withTenant', () => {
  it('shows only the rows of the organization in context', async () => {
    const titles = (await postTitles(acme)).map((row) => row.title);
    expect(titles).toContain('Welcome to Acme');
    expect(titles).not.toContain('Globex secrets');
  });

  it('shows no tenant rows without a context', async () => {
    expect(await postTitles(null)).toEqual([]);
    expect(await app.db.selectFrom('posts').select('id').execute()).toEqual([]);
  });

  it('refuses to write a row into another organization', async () => {
    await expect(
      withTenant(app.db, { organizationId: acme, userId: null }, (trx) =>
        trx.insertInto('posts').values({ organization_id: globex, title: 'smuggled' }).execute(),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it('does not carry the context past the transaction on a pooled connection', async () => {
    await postTitles(acme);
    await postTitles(acme);
    const leaked = await app.db.selectFrom('posts').select('id').execute();
    expect(leaked).toEqual([]);
  });
});
