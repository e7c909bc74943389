import { request } from 'node:http';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoData } from '../../policies/demo-data.js';
import { posts } from '../../policies/models/posts.js';
import { envConfig } from '../../server/cli/env-config.js';
import { readEnvironment } from '../../server/cli/environment.js';
import { resolveConfig } from '../../server/config/server-config.js';
import type { NamedScope } from '../../server/models/model-types.js';
import { startDataServer } from './support/data-server.js';
import { waitingOnLocks, whileLocked } from './support/table-lock.js';
import type { TestServer } from './support/test-server.js';

// Issue 34, findings 2 and 3: every request has a deadline, and a client that leaves cancels its statement.
const SLEEP = 'pg_sleep(120)';
const slow: NamedScope = { argument: null, apply: (query) => query.where(sql<boolean>`(SELECT true FROM ${sql.raw(SLEEP)})`) };
// The demo's posts with a scope that holds its statement for two minutes: a stand-in for a heavy query.
const data = { ...demoData, models: demoData.models.map((model) => (model === posts ? { ...posts, scopes: { ...posts.scopes, slow } } : model)) };

/** Backends other than the asker's running the slow statement now. */
async function sleeping(server: TestServer): Promise<number> {
  const [row] = await server.sql("SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()", [`%${SLEEP}%`]);
  return row.n;
}

/** Asks until `done` holds: the event is the database's, so the test waits for it, not for a time. */
async function until(done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Runs fn while `table` is locked in a transaction of the test's own: a request's statement that reads it waits on it. */
async function whileTableLocked<T>(server: TestServer, table: string, fn: () => Promise<T>): Promise<T> {
  const locker = new pg.Client({ connectionString: server.database.ownerUrl });
  await locker.connect();
  try {
    return await whileLocked(locker, table, fn);
  } finally {
    await locker.end();
  }
}

/** Runs fn while `organizations` is locked: a guest's lookup of its organization waits on it. */
const whileOrganizationsLocked = <T>(server: TestServer, fn: () => Promise<T>) => whileTableLocked(server, 'organizations', fn);

/** A route outside the data routes, asked by a guest or by a signed-in owner, and a table one of its statements reads. */
interface BoundedRoute {
  route: string;
  table: string;
  path: string;
  body: Record<string, unknown>;
  signedIn: boolean;
}

const PASSWORD = 'a password long enough';
const signIn: BoundedRoute = { route: 'sign-in', table: 'users', path: '/api/auth/login', body: { email: 'owner@acme.test', password: PASSWORD }, signedIn: false };
const signOut: BoundedRoute = { route: 'sign-out', table: 'sessions', path: '/api/auth/logout', body: {}, signedIn: true };
const registration: BoundedRoute = {
  route: 'registration',
  table: 'rate_limits',
  path: '/api/auth/register',
  body: { token: 'no such invitation', name: 'New', email: 'new@acme.test', password: PASSWORD, password_confirmation: PASSWORD },
  signedIn: false,
};
const organizationCreation: BoundedRoute = { route: 'organization creation', table: 'roles', path: '/api/organizations', body: { name: 'Locked', slug: 'locked-org' }, signedIn: true };

/** A server of its own for the describe block that calls this, with this deadline. */
function serverWithDeadline(requestTimeoutMs: number): () => TestServer {
  let server: TestServer;
  beforeAll(async () => {
    server = await startDataServer({ data, requestTimeoutMs });
  });
  afterAll(() => server.close());
  return () => server;
}

describe('a request past its deadline', () => {
  const served = serverWithDeadline(300);

  it('answers 503 with Retry-After, leaves nothing running, and the server keeps serving', async () => {
    const token = await served().login('owner@acme.test');
    const answer = await served().api.get('/api/acme/posts?scope=slow', { token });
    expect(answer).toMatchObject({
      status: 503,
      headers: { 'retry-after': '5' },
      body: { message: 'The request took longer than its deadline of 300 ms and was stopped; nothing it changed was kept. Try again later, or ask for less.' },
    });
    expect(await sleeping(served())).toBe(0);
    expect((await served().api.get('/api/acme/posts', { token })).status).toBe(200);
  });

  it('keeps nothing a write past it did', async () => {
    await served().sql(`CREATE FUNCTION slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM ${SLEEP}; RETURN NEW; END $$`);
    await served().sql("CREATE TRIGGER posts_slow BEFORE INSERT ON posts FOR EACH ROW WHEN (NEW.title = 'slow') EXECUTE FUNCTION slow_insert()");
    const token = await served().login('owner@acme.test');
    const operations = [
      { model: 'posts', action: 'create', data: { title: 'written before the slow one' } },
      { model: 'posts', action: 'create', data: { title: 'slow' } },
    ];
    try {
      expect(await served().api.post('/api/acme/nested', { token, body: { operations } })).toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
      expect(await served().sql("SELECT id FROM posts WHERE title IN ('written before the slow one', 'slow')")).toEqual([]);
    } finally {
      await served().sql('DROP FUNCTION slow_insert() CASCADE');
    }
  });

  it('bounds the transaction of a route outside the data routes: an organization created past it is not kept', async () => {
    await served().sql(`CREATE FUNCTION slow_organization() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM ${SLEEP}; RETURN NEW; END $$`);
    await served().sql("CREATE TRIGGER organizations_slow BEFORE INSERT ON organizations FOR EACH ROW WHEN (NEW.slug = 'slow-org') EXECUTE FUNCTION slow_organization()");
    const token = await served().login('owner@acme.test');
    try {
      expect(await served().api.post('/api/organizations', { token, body: { name: 'Slow', slug: 'slow-org' } })).toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
      expect(await served().sql("SELECT id FROM organizations WHERE slug = 'slow-org'")).toEqual([]);
      expect(await sleeping(served())).toBe(0);
    } finally {
      await served().sql('DROP FUNCTION slow_organization() CASCADE');
    }
  });

  it("bounds a guest's lookup of its organization: 503, and the lookup no longer waits", async () => {
    const waiting = await whileOrganizationsLocked(served(), async () => {
      const answer = await served().api.get('/api/public/acme/posts');
      expect(answer).toMatchObject({ status: 503, headers: { 'retry-after': '5' }, body: { message: 'The request took longer than its deadline of 300 ms and was stopped; nothing it changed was kept. Try again later, or ask for less.' } });
      return waitingOnLocks(served());
    });
    expect(waiting).toBe(0);
    // The lookup found the organization again: a guest's usual answer, as it holds no permission on posts.
    expect((await served().api.get('/api/public/acme/posts')).status).toBe(403);
  });

  it.each([signIn, signOut, registration, organizationCreation])('bounds the statements of $route: 503 while $table is locked, and nothing waits on it afterwards', async ({ table, path, body, signedIn }) => {
    const token = signedIn ? await served().login('owner@acme.test') : undefined;
    const waiting = await whileTableLocked(served(), table, async () => {
      expect(await served().api.post(path, { token, body })).toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
      return waitingOnLocks(served());
    });
    expect(waiting).toBe(0);
  });

  it('bounds the readiness probe: 503 while the migrations it checks are locked, and nothing waits on them afterwards', async () => {
    const waiting = await whileTableLocked(served(), 'gatehouse_migrations', async () => {
      expect(await served().api.get('/api/ready')).toMatchObject({ status: 503, headers: { 'retry-after': '5' }, body: { message: expect.stringMatching(/^The request took longer than its deadline of 300 ms/) } });
      return waitingOnLocks(served());
    });
    expect(waiting).toBe(0);
    expect(await served().api.get('/api/ready')).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('bounds the lookup of a slug a signed-in caller checks', async () => {
    const token = await served().login('owner@acme.test');
    const answer = await whileOrganizationsLocked(served(), () => served().api.get('/api/acme/organizations/exists', { token }));
    expect(answer).toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
  });

  it('is backed by the service login, whose sessions start with a statement_timeout of a minute', async () => {
    const login = new pg.Client({ connectionString: await served().database.serviceUrl() });
    await login.connect();
    try {
      expect((await login.query('SHOW statement_timeout')).rows).toEqual([{ statement_timeout: '1min' }]);
    } finally {
      await login.end();
    }
  });
});

describe('a client that goes away', () => {
  const served = serverWithDeadline(600_000);

  it('cancels the statement running for it', async () => {
    const token = await served().login('owner@acme.test');
    const url = new URL('/api/acme/posts?scope=slow', served().api.baseUrl);
    const leaving = request(url, { headers: { authorization: `Bearer ${token}` } });
    leaving.on('error', () => {});
    leaving.end();
    await until(async () => (await sleeping(served())) === 1);
    leaving.destroy();
    await until(async () => (await sleeping(served())) === 0);
    expect((await served().api.get('/api/acme/posts', { token })).status).toBe(200);
  });

  it("cancels a guest's lookup of its organization", async () => {
    await whileOrganizationsLocked(served(), async () => {
      const leaving = request(new URL('/api/public/acme/posts', served().api.baseUrl));
      leaving.on('error', () => {});
      leaving.end();
      await until(async () => (await waitingOnLocks(served())) === 1);
      leaving.destroy();
      // Before the lock goes: only the cancel can end the lookup now.
      await until(async () => (await waitingOnLocks(served())) === 0);
    });
    // The lookup found the organization again: a guest's usual answer, as it holds no permission on posts.
    expect((await served().api.get('/api/public/acme/posts')).status).toBe(403);
  });

  it.each([signIn, organizationCreation])('cancels the statements of $route', async ({ table, path, body, signedIn }) => {
    const token = signedIn ? await served().login('owner@acme.test') : undefined;
    await whileTableLocked(served(), table, async () => {
      const headers = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
      const leaving = request(new URL(path, served().api.baseUrl), { method: 'POST', headers });
      leaving.on('error', () => {});
      leaving.end(JSON.stringify(body));
      await until(async () => (await waitingOnLocks(served())) === 1);
      leaving.destroy();
      // Before the lock goes: only the cancel can end the statement now.
      await until(async () => (await waitingOnLocks(served())) === 0);
    });
    expect(await served().sql("SELECT id FROM organizations WHERE slug = 'locked-org'")).toEqual([]);
  });
});

describe('a request that deadlocks with another transaction', () => {
  const served = serverWithDeadline(600_000);

  // PostgreSQL breaks a deadlock by failing the transaction whose backend finds it first:
  // here the request, which holds post A and waits on post B while another connection holds B
  // and then asks for A. Two callers' nested writes of the same posts in opposite orders meet so.
  it('answers 503 with Retry-After and keeps nothing it wrote', async () => {
    const token = await served().login('owner@acme.test');
    const [a, b] = (await served().sql<{ id: number }>("SELECT id FROM posts WHERE organization_id = (SELECT id FROM organizations WHERE slug = 'acme') ORDER BY id LIMIT 2")).map(({ id }) => id);
    const other = new pg.Client({ connectionString: served().database.ownerUrl });
    await other.connect();
    try {
      // Only the request's backend looks for it (after its default second), however busy the machine.
      await other.query("SET deadlock_timeout = '10min'");
      await other.query('BEGIN');
      await other.query("UPDATE posts SET title = 'held' WHERE id = $1", [b]);
      const operations = [a, b].map((id) => ({ model: 'posts', action: 'update', id, data: { title: 'deadlocked' } }));
      const answer = served().api.post('/api/acme/nested', { token, body: { operations } });
      await until(async () => (await served().sql("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [served().database.name]))[0].n > 0);
      const closing = other.query("UPDATE posts SET title = 'held' WHERE id = $1", [a]);
      expect(await answer).toMatchObject({
        status: 503,
        headers: { 'retry-after': '5' },
        body: { message: 'The request ran into another one changing the same records at the same time and was stopped; nothing it changed was kept. Try again.' },
      });
      await closing;
      await other.query('ROLLBACK');
    } finally {
      await other.end();
    }
    expect(await served().sql("SELECT id FROM posts WHERE title = 'deadlocked'")).toEqual([]);
  });
});

describe('the deadline setting', () => {
  const resolved = (env: NodeJS.ProcessEnv) => resolveConfig(envConfig(readEnvironment(env), 'postgres://unused', 'k4.secret.unused'));

  // PostgreSQL refuses a statement_timeout past 2^31 - 1 ms, and every request's opening sets it:
  // a longer deadline, accepted, made every request a 500.
  it('is refused at start past what statement_timeout takes', () => {
    expect(resolved({ GATEHOUSE_REQUEST_TIMEOUT_MS: '2147483647' }).requestTimeoutMs).toBe(2_147_483_647);
    expect(() => resolved({ GATEHOUSE_REQUEST_TIMEOUT_MS: '2147483648' })).toThrow('requestTimeoutMs must be a whole number of milliseconds from 1 to 2147483647.');
  });
});
