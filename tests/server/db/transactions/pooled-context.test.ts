import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../../server/db/connection/database.js';
import type { DemoSchema } from '../../../../policies/schema.js';
import { withTenant } from '../../../../server/db/transactions/tenant-transaction.js';
import { BoundConnectionError } from '../../../../server/db/connection/connection-kysely.js';
import { CallerPresence } from '../../../../server/db/connection/caller-presence.js';
import { runWithinDeadline } from '../../../../server/db/transactions/request-read.js';
import { PlannedStatementError, tenantStatements } from '../../../../server/db/transactions/tenant-statements.js';
import { listOrganizationRoles, roleInContext } from '../../../../server/db/repositories/roles.js';
import type { Schema } from '../../../../server/db/schema.js';
import { createTestDatabase, type TestDatabase } from '../../../support/database.js';
import { demoOrganizationIds, demoPostTitles, type DemoSlug } from '../../../support/demo.js';

// Requests for different tenants share a pool of two connections, interleaved at every await
// in orders fast-check picks. Whatever the order, a request sees its own tenant only, and no
// connection keeps a context once its request is over.
let testDb: TestDatabase;
let app: Database<DemoSchema>;
let ids: Record<DemoSlug, number>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = openDatabase<DemoSchema>({ connectionString: testDb.ownerUrl, maxConnections: 2 });
  ids = await demoOrganizationIds(testDb.ownerUrl);
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

/** A request that fails halfway: its transaction rolls back. */
class AbortedRequest extends Error {}

type Tenant = DemoSlug | 'none' | 'outside';

interface Request {
  /** 'none': a transaction without an organization; 'outside': no transaction at all. */
  tenant: Tenant;
  queries: number;
  aborts: boolean;
}

const requestArbitrary = fc.record({
  tenant: fc.constantFrom<Tenant>('acme', 'globex', 'none', 'outside'),
  queries: fc.integer({ min: 1, max: 3 }),
  aborts: fc.boolean(),
});

async function observe(db: Kysely<DemoSchema>) {
  const titles = (await db.selectFrom('posts').select('title').orderBy('title').execute()).map((row) => row.title);
  const { rows } = await sql<{ organization: string }>`SELECT coalesce(current_setting('gatehouse.organization_id', true), '') AS organization`.execute(db);
  return { titles, organization: rows[0]?.organization };
}

function expectedView(tenant: Tenant) {
  return tenant === 'acme' || tenant === 'globex'
    ? { titles: demoPostTitles(tenant), organization: String(ids[tenant]) }
    : { titles: [], organization: '' };
}

async function serve(scheduler: fc.Scheduler, request: Request, index: number): Promise<void> {
  const step = (what: string) => scheduler.schedule(Promise.resolve(), `request ${index} (${request.tenant}): ${what}`);
  const work = async (db: Kysely<DemoSchema>) => {
    for (let query = 0; query < request.queries; query += 1) {
      await step(`query ${query}`);
      expect(await observe(db)).toEqual(expectedView(request.tenant));
    }
    if (request.aborts) throw new AbortedRequest();
  };
  await step('arrives');
  if (request.tenant === 'outside') return work(app.db);
  const organizationId = request.tenant === 'none' ? null : ids[request.tenant];
  return withTenant(app.db, { organizationId, userId: null }, work);
}

/** Both pooled connections at once, each asked what it would show a query with no context. */
async function idleConnections() {
  return app.db.connection().execute((first) =>
    app.db.connection().execute(async (second) => {
      const views = [];
      for (const connection of [first, second]) {
        const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(connection);
        views.push({ pid: rows[0]?.pid, ...(await observe(connection)) });
      }
      return views;
    }),
  );
}

describe('a pool of two connections serving interleaved requests', () => {
  it('never lets one request see another tenant, nor leaves a context behind', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(requestArbitrary, { minLength: 2, maxLength: 6 }), async (scheduler, requests) => {
        const outcomes = await scheduler.waitFor(Promise.allSettled(requests.map((request, index) => serve(scheduler, request, index))));
        outcomes.forEach((outcome, index) => {
          if (outcome.status === 'rejected' && !(outcome.reason instanceof AbortedRequest)) throw outcome.reason;
          expect(outcome.status).toBe(requests[index]?.aborts ? 'rejected' : 'fulfilled');
        });
        const [first, second] = await idleConnections();
        expect(first?.pid).not.toBe(second?.pid);
        for (const connection of [first, second]) expect(connection).toMatchObject(expectedView('none'));
      }),
      { numRuns: 200 },
    );
  });
});

describe('a tenant transaction', () => {
  // Its connection's Kysely is kept for the connection's next requests; it only ever runs
  // statements on that connection, in the transaction and its context.
  it('cannot begin another transaction from its own', async () => {
    const inTenant = (fn: (trx: Kysely<DemoSchema>) => Promise<unknown>) => withTenant(app.db, { organizationId: ids.acme, userId: null }, fn);
    await expect(inTenant((trx) => trx.transaction().execute(() => Promise.resolve()))).rejects.toThrow(BoundConnectionError);
    expect(await inTenant((trx) => trx.connection().execute(observe))).toEqual(expectedView('acme'));
    expect(await inTenant(observe)).toEqual(expectedView('acme'));
  });

  // A transaction opened on its connection would end it: BEGIN is a no-op inside one, and the
  // COMMIT after it would commit the request's work so far and drop its tenant context.
  it('runs a statement within a deadline in itself, and refuses to open a transaction in itself', async () => {
    const deadline = { statementTimeoutMs: 5_000, caller: new CallerPresence() };
    const organization = sql<{ organization: string }>`SELECT current_setting('gatehouse.organization_id', true) AS organization`;
    const seen = await withTenant(app.db, { organizationId: ids.acme, userId: null }, async (trx) => {
      const [within] = await runWithinDeadline<{ organization: string }, DemoSchema>(trx, organization.compile(trx), deadline);
      return { within, after: await observe(trx) };
    });
    expect(seen).toEqual({ within: { organization: String(ids.acme) }, after: expectedView('acme') });
    await expect(withTenant(app.db, { organizationId: ids.acme, userId: null }, (trx) => withTenant(trx, { organizationId: ids.globex, userId: null }, observe))).rejects.toThrow(BoundConnectionError);
  });
});

describe('a tenant statement', () => {
  const pool = () => app.db as unknown as Kysely<Schema>;
  const inAcme = <T>(fn: Parameters<typeof withTenant<T>>[2]) => withTenant(pool(), { organizationId: ids.acme, userId: null }, fn);

  it('is refused the pool by its type, where it would read as nobody (checked by tsc)', async () => {
    expect((await inAcme((trx) => listOrganizationRoles(trx, ids.acme))).length).toBeGreaterThan(0);
    // @ts-expect-error the pool is no tenant transaction: it sets no context
    expect(await listOrganizationRoles(pool(), ids.acme)).toEqual([]);
  });

  it('planned ahead compiles as in its transaction, and runs nowhere else', async () => {
    const text = ({ sql, parameters }: { sql: string; parameters: readonly unknown[] }) => ({ sql, parameters });
    const planned = roleInContext(tenantStatements(pool()), { slug: 'owner' });
    expect(text(planned.compile())).toEqual(await inAcme(async (trx) => text(roleInContext(trx, { slug: 'owner' }).compile())));
    await expect(planned.execute()).rejects.toThrow(PlannedStatementError);
  });
});
