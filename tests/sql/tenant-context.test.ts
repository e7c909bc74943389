import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/connection/database.js';
import type { DemoSchema } from '../../policies/schema.js';
import { withTenant } from '../../server/db/transactions/tenant-transaction.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let testDb: TestDatabase;
let app: Database<DemoSchema>;
let acme: number;
let globex: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = openDatabase<DemoSchema>({ connectionString: testDb.ownerUrl, maxConnections: 2 });
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

  it('refuses context values that are not ids or token hashes, before any statement runs', async () => {
    const smuggled = [
      { organizationId: Number.NaN, userId: null },
      { organizationId: 1.5, userId: null },
      { organizationId: acme, userId: null, invitationTokenHash: "x', true), set_config('gatehouse.organization_id', '1" },
      { organizationId: `${globex}` as unknown as number, userId: null },
    ];
    for (const context of smuggled) {
      await expect(withTenant(app.db, context, () => Promise.resolve('ran'))).rejects.toThrow(/Not a tenant context value/);
    }
  });

  it('rolls back everything fn wrote when it fails, and hands back a clean connection', async () => {
    const marker = `rolled back ${Date.now()}`;
    await expect(
      withTenant(app.db, { organizationId: acme, userId: null }, async (trx) => {
        await trx.insertInto('posts').values({ organization_id: acme, title: marker }).execute();
        throw new Error('the request failed');
      }),
    ).rejects.toThrow('the request failed');
    const titles = (await postTitles(acme)).map((row) => row.title);
    expect(titles).not.toContain(marker);
    // Both pooled connections are out of any transaction: a write outside one commits on its own.
    const states = await Promise.all([1, 2].map(() => app.db.selectNoFrom((eb) => eb.fn<string>('txid_current_if_assigned', []).as('txid')).execute()));
    expect(states.flat().map((row) => row.txid)).toEqual([null, null]);
  });

  it('does not carry the context past the transaction on a pooled connection', async () => {
    await postTitles(acme);
    await postTitles(acme);
    const leaked = await app.db.selectFrom('posts').select('id').execute();
    expect(leaked).toEqual([]);
  });
});
