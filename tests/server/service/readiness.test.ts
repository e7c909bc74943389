import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { generateTokenKeyPair } from '../../../server/auth/token-keys.js';
import { createServer, type GatehouseServer } from '../../../server/create-server.js';
import { migrate, readMigrations } from '../../../server/db/migrations/migrations.js';
import { createEmptyDatabase, type TestDatabase } from '../../support/database.js';
import { queryOnce } from '../../support/query.js';
import { Api } from '../support/http-client.js';
import { TEST_ROUTE_GROUPS } from '../support/test-server.js';
import { asServiceLogin } from '../../support/service-login.js';
import { sharedCheck } from '../../../server/service/readiness.js';
import { CallerPresence } from '../../../server/db/connection/caller-presence.js';
import type { RequestDeadline } from '../../../server/db/transactions/request-deadline.js';

const NOT_MIGRATED = { message: 'database not migrated: run `npx gatehouse migrate`' };

// Each test serves an empty database of its own: one migrates it, the other needs it empty.
async function serveEmptyDatabase(): Promise<{ database: TestDatabase; server: GatehouseServer; api: Api }> {
  const database = await createEmptyDatabase();
  const server = await createServer({
    database: asServiceLogin(await database.serviceUrl(), 2),
    tokens: { secretKey: (await generateTokenKeyPair()).secretKey },
    routeGroups: TEST_ROUTE_GROUPS,
    logger: pino({ level: 'silent' }),
  });
  return { database, server, api: new Api(await server.listen({ port: 0, host: '127.0.0.1' })) };
}

let served: Awaited<ReturnType<typeof serveEmptyDatabase>>[] = [];
const serve = async () => {
  const one = await serveEmptyDatabase();
  served.push(one);
  return one;
};

afterEach(async () => {
  for (const { server, database } of served) {
    await server.close();
    await database.drop();
  }
  served = [];
});

describe('/api/ready and /api/health on a database being migrated', () => {
  it('is not ready while the database is empty, and requests say why instead of a 500', async () => {
    const { api, server } = await serve();
    expect(await api.get('/api/ready')).toMatchObject({ status: 503, body: NOT_MIGRATED });
    expect(await api.get('/api/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const login = await api.post('/api/auth/login', { body: { email: 'owner@acme.test', password: 'password123!' } });
    expect(login).toMatchObject({ status: 503, body: NOT_MIGRATED });
    await expect(server.ready()).rejects.toThrow(NOT_MIGRATED.message);
  });

  it('is not ready while a migration is pending, then ready once all are applied', async () => {
    const { api, server, database } = await serve();
    await migrate(database.ownerUrl);
    const last = (await readMigrations()).at(-1)!.name;
    const [record] = await queryOnce(database.ownerUrl, 'DELETE FROM gatehouse_migrations WHERE name = $1 RETURNING name, checksum', [last]);
    expect(await api.get('/api/ready')).toMatchObject({ status: 503, body: NOT_MIGRATED });

    await queryOnce(database.ownerUrl, 'INSERT INTO gatehouse_migrations (name, checksum) VALUES ($1, $2)', [record!.name, record!.checksum]);
    expect(await api.get('/api/ready')).toMatchObject({ status: 200, body: { status: 'ready' } });
    await expect(server.ready()).resolves.toBeUndefined();
  });
});

// `/api/ready` answers anyone: a flood of it must hold one pooled connection, not the pool.
describe('readiness probes asking at once', () => {
  it('share one check, which a prober leaving does not cancel for the others, and the next ask checks again', async () => {
    const checked: RequestDeadline[] = [];
    let finish = () => {};
    const check = sharedCheck(async (deadline) => {
      checked.push(deadline);
      await new Promise<void>((resolve) => (finish = resolve));
    });
    const probe = () => ({ statementTimeoutMs: 300, caller: new CallerPresence() });
    const leaving = probe();
    const answers = [check(leaving), check(probe()), check(probe())];
    leaving.caller.leave();
    finish();
    await Promise.all(answers);
    expect(checked).toHaveLength(1);
    expect(checked[0]).toMatchObject({ statementTimeoutMs: 300, caller: { left: false } });
    const next = check(probe());
    finish();
    await next;
    expect(checked).toHaveLength(2);
  });
});
