import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import Router from '@koa/router';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import demo from '../../../../policies/gatehouse.config.js';
import { seedDemo } from '../../../../policies/seed.js';
import { generateTokenKeyPair } from '../../../../server/auth/token-keys.js';
import { migrate } from '../../../../server/db/migrations/migrations.js';
import type { DataState } from '../../../../server/http/state.js';
import { freePort, startEmbeddedCluster, type EmbeddedCluster } from '../../../../server/db/cluster/embedded-cluster.js';
import { startStreamingReplica, type StreamingReplica } from '../../../../harness/streaming-replica.js';
import { clusterFolder } from '../../../support/cluster-folder.js';
import { provisionServiceLogin } from '../../../support/service-login.js';
import { createTestDatabase, type TestDatabase } from '../../../support/database.js';
import { idOf, startDataServer } from '../../support/data-server.js';
import { lastMail } from '../../support/mail.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

// A primary of its own (a standby copies a whole cluster), its demo data, and one hot standby.
let folder: string;
let primaryDataDir: string;
let primary: EmbeddedCluster;
let standby: StreamingReplica;
let database: TestDatabase;

beforeAll(async () => {
  folder = await clusterFolder('replicas');
  primaryDataDir = join(folder, 'primary');
  primary = await startEmbeddedCluster({ dataDir: primaryDataDir, persistent: false });
  const ownerUrl = primary.url('postgres');
  await migrate(ownerUrl, { dir: demo.migrations });
  await seedDemo(ownerUrl);
  const serviceUrl = await provisionServiceLogin(ownerUrl);
  database = { name: 'postgres', ownerUrl, serviceUrl: () => Promise.resolve(serviceUrl), drop: async () => {} };
  standby = await startStreamingReplica(ownerUrl, primaryDataDir, join(folder, 'standby'));
});

afterAll(async () => {
  await standby?.stop();
  await primary?.stop();
  await rm(folder, { recursive: true, force: true });
});

/** A server whose members' reads go to the standby while it lags at most `maxLagMs`. */
// One caller's reads queue for their share of the pool, behind reads a frozen standby holds until
// the server gives it up: a busy machine may take longer than the default wait, and a 429 here
// would be the share's, not the replicas'.
const PATIENT_SHARE = { waitMs: 60_000 };

async function replicatedServer(maxLagMs: number): Promise<TestServer> {
  return startDataServer({ testDatabase: database, replicas: { urls: [standby.via(await database.serviceUrl())], maxLagMs }, metrics: { port: 0, host: '127.0.0.1' }, fairShare: PATIENT_SHARE });
}

/** Reads each server served so far, from the server's Prometheus metrics. */
async function readsServed(server: TestServer): Promise<{ replica: number; primary: number }> {
  const text = await (await fetch(server.server.metricsUrl!)).text();
  const count = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  return { replica: count(/^gatehouse_replica_reads_total\{server="127\.0\.0\.1:\d+"\} (\d+)$/m), primary: count(/^gatehouse_replica_reads_total\{server="primary"\} (\d+)$/m) };
}

/**
 * Reads `path` (globex's posts) until a read is served by `by`: a poll that a busy machine delays
 * past a second skips the standby for a moment, so one read alone proves nothing.
 */
async function untilServedBy(server: TestServer, token: string, by: 'replica' | 'primary', path = '/api/globex/posts'): Promise<void> {
  await eventually(async () => {
    const before = await readsServed(server);
    expect([path, (await server.api.get(path, { token })).status]).toEqual([path, 200]);
    return (await readsServed(server))[by] > before[by];
  });
}

/** Until the standby has replayed everything the primary has committed so far. */
async function untilReplayed(server: TestServer): Promise<void> {
  const [primary] = await server.sql<{ position: string }>('SELECT pg_current_wal_lsn()::text AS position');
  await eventually(async () => (await standby.query(`SELECT pg_last_wal_replay_lsn() >= '${primary!.position}'::pg_lsn AS replayed`))[0]!.replayed === true);
}

/** The statuses of GET and HEAD of each of `paths` with `token`, each once. */
async function statusesOf(server: TestServer, paths: readonly string[], token: string): Promise<number[]> {
  const answers = await Promise.all(paths.flatMap((path) => ['GET', 'HEAD'].map((method) => server.api.request(method, path, { token }))));
  return [...new Set(answers.map(({ status }) => status))];
}

async function eventually(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every route a replica serves a member of acme: the data routes, and the tenant routes that read. */
async function readRoutes(server: TestServer): Promise<string[]> {
  const [{ post, role }] = await server.sql(`SELECT (SELECT min(p.id) FROM posts p JOIN organizations o ON o.id = p.organization_id WHERE o.slug = 'acme') AS post, (SELECT id FROM roles WHERE slug = 'editor') AS role`);
  const data = ['/api/acme/posts', '/api/acme/posts?include=comments', `/api/acme/posts/${post}`, `/api/acme/posts/${post}?include=comments`, '/api/acme/posts/trashed', '/api/acme/posts/computed', `/api/acme/posts/${post}/audit`, '/api/acme/comments'];
  const tenant = ['/api/acme/roles', '/api/acme/user-role', '/api/acme/organizations', '/api/acme/members', `/api/acme/roles/${role}/permissions`, '/api/acme/audit', '/api/acme/permission-catalog', '/api/acme/invitations', '/api/acme/decisions'];
  return [...data, ...tenant];
}

describe('read replicas', () => {
  let server: TestServer;
  let routes: string[];
  beforeAll(async () => {
    await standby.delayApply(0);
    server = await replicatedServer(600_000);
    routes = await readRoutes(server);
  });
  afterAll(() => server?.close());

  it('serves members\' reads from the standby, on every route a replica serves', async () => {
    const token = await server.login('owner@acme.test');
    for (const path of routes) await untilServedBy(server, token, 'replica', path);
  });

  it('refuses a revoked session, a withdrawn permission and a removed member at once, while the standby replays nothing', { timeout: 120_000 }, async () => {
    await standby.delayApply(3_600_000);
    const viewer = await server.login('viewer@acme.test');
    const editor = await server.login('editor@acme.test');
    expect((await server.api.get('/api/acme/posts', { token: viewer })).status).toBe(200);
    expect((await server.api.post('/api/auth/logout', { token: viewer })).status).toBe(200);
    const answers = new Set<number>();
    // 1,000 requests in batches of 20, every route in turn.
    for (let batch = 0; batch < 50; batch++) {
      const statuses = await Promise.all(Array.from({ length: 20 }, (_, index) => server.api.get(routes[(batch * 20 + index) % routes.length]!, { token: viewer })));
      for (const { status } of statuses) answers.add(status);
    }
    expect([...answers]).toEqual([401]);

    await server.sql(`UPDATE user_roles SET denied_permissions = denied_permissions || '{posts.index}' WHERE user_id = (SELECT id FROM users WHERE email = 'editor@acme.test')`);
    expect((await server.api.get('/api/acme/posts', { token: editor })).status).toBe(403);

    await server.sql(`DELETE FROM user_roles WHERE user_id = (SELECT id FROM users WHERE email = 'editor@acme.test')`);
    expect((await server.api.get('/api/acme/comments', { token: editor })).status).toBe(404);
  });

  it('refuses at once every other way access is taken away, while the standby still grants it: a role or its permissions changed, a password reset, a deleted organization, a rotated key', { timeout: 120_000 }, async () => {
    await standby.delayApply(0);
    const owner = await server.login('owner@acme.test');
    expect((await server.api.post('/api/organizations', { token: owner, body: { name: 'Doomed', slug: 'doomed' } })).status).toBe(201);
    const [viewer, contributor, otherContributor, doomedOwner] = [
      await server.login('viewer@acme.test'),
      await server.login('contributor@acme.test'),
      await server.login('contributor@acme.test'),
      await server.login('owner@acme.test'),
    ];
    // From here on the standby holds every session, membership, role and organization above, and nothing later.
    await untilReplayed(server);
    await standby.delayApply(3_600_000);
    const [roles, contributorId] = [await server.sql<{ id: number; slug: string }>(`SELECT id, slug FROM roles`), await idOf(server, 'users', 'email', 'contributor@acme.test')];
    const role = (slug: string) => roles.find((row) => row.slug === slug)!.id;
    for (const token of [viewer, contributor, otherContributor]) expect((await server.api.get('/api/acme/posts', { token })).status).toBe(200);
    expect((await server.api.get('/api/doomed/posts', { token: doomedOwner })).status).toBe(200);

    // The viewer role's permissions, then the contributor's role.
    expect((await server.api.request('PUT', `/api/acme/roles/${role('viewer')}/permissions`, { token: owner, body: { permissions: ['comments.index'] } })).status).toBe(200);
    expect((await server.api.get('/api/acme/posts', { token: viewer })).status).toBe(403);
    expect((await server.api.request('PATCH', `/api/acme/members/${contributorId}`, { token: owner, body: { role_id: role('admin') } })).status).toBe(200);
    expect((await server.api.get('/api/acme/posts', { token: contributor })).status).toBe(403);

    // A password reset revokes every session of its user.
    expect((await server.api.post('/api/auth/password/recover', { body: { email: 'contributor@acme.test' } })).status).toBe(200);
    const password = 'another long password';
    const reset = { token: (await lastMail(server, 'contributor@acme.test', 60_000)).token, email: 'contributor@acme.test', password, password_confirmation: password };
    expect((await server.api.post('/api/auth/password/reset', { body: reset })).status).toBe(200);
    for (const token of [contributor, otherContributor]) expect(await statusesOf(server, routes, token)).toEqual([401]);

    // The operator deletes an organization (`gatehouse org remove`).
    await server.sql(`DELETE FROM organizations WHERE slug = 'doomed'`);
    expect(await statusesOf(server, routes.map((path) => path.replace('/api/acme/', '/api/doomed/')), doomedOwner)).toEqual([404]);

    // A key rotation that drops the key a token was signed with: another instance, the standby and the session as they were.
    const rotated = await startDataServer({ testDatabase: database, replicas: { urls: [standby.via(await database.serviceUrl())], maxLagMs: 600_000 }, tokens: { secretKey: (await generateTokenKeyPair()).secretKey } });
    try {
      expect(await statusesOf(rotated, routes, viewer)).toEqual([401]);
    } finally {
      await rotated.close();
    }

    // Every refusal above was the primary's: the standby still grants all of it.
    const [held] = await standby.query(
      `SELECT (SELECT count(*)::int FROM organizations WHERE slug = 'doomed') AS organizations,
              (SELECT count(*)::int FROM sessions WHERE user_id = ${contributorId} AND revoked_at IS NULL) AS sessions,
              (SELECT r.slug FROM user_roles ur JOIN roles r ON r.id = ur.role_id JOIN organizations o ON o.id = ur.organization_id WHERE ur.user_id = ${contributorId} AND o.slug = 'acme') AS role,
              (SELECT 'posts.index' = ANY (p.permissions) FROM org_role_permissions p JOIN organizations o ON o.id = p.organization_id WHERE o.slug = 'acme' AND p.role_id = ${role('viewer')}) AS viewer_lists_posts`,
    );
    expect(held).toEqual({ organizations: 1, sessions: expect.any(Number), role: 'contributor', viewer_lists_posts: true });
    expect(held!.sessions).toBeGreaterThanOrEqual(2);
  });

  it('reads a caller\'s own writes back on another instance that shares the session', { timeout: 120_000 }, async () => {
    await standby.delayApply(3_600_000);
    const other = await replicatedServer(600_000);
    try {
      const token = await server.login('owner@globex.test');
      const { id } = (await server.api.get('/api/globex/posts', { token })).body.data[0] as { id: number };
      const stale: string[] = [];
      // Each round writes on one instance and reads back on the other, in turn.
      for (let round = 0; round < 40; round++) {
        const [writer, reader] = round % 2 === 0 ? [server, other] : [other, server];
        const title = `instance revision ${round}`;
        expect((await writer.api.request('PATCH', `/api/globex/posts/${id}`, { token, body: { title } })).status).toBe(200);
        const read = (await reader.api.get(`/api/globex/posts/${id}`, { token })).body.title as string;
        if (read !== title) stale.push(`round ${round}: ${read}`);
      }
      expect(stale).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('reads for authorize, explain and a write on the primary, while GET and HEAD of the same caller read the standby; only the write keeps a write position', { timeout: 120_000 }, async () => {
    await standby.delayApply(3_600_000);
    const [post] = await server.sql<{ id: number }>(`INSERT INTO posts (organization_id, title) SELECT id, 'only on the primary' FROM organizations WHERE slug = 'globex' RETURNING id`);
    const path = `/api/globex/posts/${post!.id}`;
    const token = await server.login('owner@globex.test');
    // The standby lacks the post, so a read it serves is a 404; the primary serves them until a poll finds the standby within the bound.
    for (const method of ['GET', 'HEAD']) await eventually(async () => (await server.api.request(method, path, { token })).status === 404);
    const check = { model: 'posts', action: 'show', id: post!.id };
    // Each session's write position: an UPDATE of the primary's sessions row each time one is kept.
    const positions = async () =>
      (await server.sql<{ positions: string }>(`SELECT string_agg(coalesce(write_lsn::text, '-'), ',' ORDER BY id) AS positions FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = 'owner@globex.test')`))[0]!.positions;
    const before = await positions();
    expect((await server.api.post('/api/globex/authorize', { token, body: { checks: [check] } })).body.results).toMatchObject([{ allowed: true }]);
    expect((await server.api.post('/api/globex/explain', { token, body: check })).body).toMatchObject({ allowed: true, status: 200 });
    expect(await positions()).toBe(before);
    expect((await server.api.request('PATCH', path, { token, body: { title: 'changed on the primary' } })).status).toBe(200);
    const written = await positions();
    expect(written).not.toBe(before);
    expect((await server.api.post('/api/auth/logout', { token })).status).toBe(200);
    expect(await positions()).toBe(written);
  });

  it('reads a caller\'s own writes back, 1,000 times, while other callers may read the lagging standby', { timeout: 180_000 }, async () => {
    await standby.delayApply(3_600_000);
    const reader = await server.login('owner@globex.test');
    const posts = (await server.api.get('/api/globex/posts', { token: reader })).body.data as { id: number }[];
    const rounds = Math.ceil(1_000 / posts.length);
    const stale: string[] = [];
    // A session per post, side by side, each writing its post and reading it back at once: 1,000 times in all.
    await Promise.all(
      posts.map(async ({ id }) => {
        const writer = await server.login('owner@globex.test');
        for (let round = 0; round < rounds; round++) {
          const title = `revision ${round}`;
          expect((await server.api.request('PATCH', `/api/globex/posts/${id}`, { token: writer, body: { title } })).status).toBe(200);
          // Alternately the record and the list it is in.
          const read =
            round % 2 === 0
              ? (await server.api.get(`/api/globex/posts/${id}`, { token: writer })).body
              : (await server.api.get('/api/globex/posts?per_page=100', { token: writer })).body.data.find((post: { id: number }) => post.id === id);
          if (read.title !== title) stale.push(`post ${id}, round ${round}: ${read.title}`);
        }
      }),
    );
    expect(stale).toEqual([]);
    // A session that wrote nothing reads the standby, an hour behind and within the bound.
    await eventually(async () => (await server.api.get(`/api/globex/posts/${posts[0]!.id}`, { token: reader })).body.title !== `revision ${rounds - 1}`);
  });

  it('reads back a write made outside the member routes: the organization a caller just created lists them', async () => {
    await standby.delayApply(3_600_000);
    const token = await server.login('owner@globex.test');
    expect((await server.api.post('/api/organizations', { token, body: { name: 'Replicated', slug: 'replicated' } })).status).toBe(201);
    const members = await server.api.get('/api/replicated/members', { token });
    expect(members.body.data.map(({ email }: { email: string }) => email)).toEqual(['owner@globex.test']);
  });

  it('reads back a registration: the member an invitation made lists themselves', async () => {
    await standby.delayApply(3_600_000);
    const owner = await server.login('owner@acme.test');
    const [role] = await server.sql<{ id: number }>(`SELECT id FROM roles WHERE slug = 'owner'`);
    expect((await server.api.post('/api/acme/invitations', { token: owner, body: { email: 'replicated@acme.test', role_id: role!.id } })).status).toBe(201);
    const password = 'a long password';
    const body = { token: (await lastMail(server, 'replicated@acme.test')).token, name: 'Replicated', email: 'replicated@acme.test', password, password_confirmation: password };
    const registered = await server.api.post('/api/auth/register', { body });
    expect(registered.status).toBe(201);
    const members = await server.api.get('/api/acme/members', { token: registered.body.token });
    expect(members.body.data.map(({ email }: { email: string }) => email)).toContain('replicated@acme.test');
  });
});

describe('a replica\'s login', () => {
  it('is held to the primary\'s rule: a login that could leave gatehouse_app is refused', async () => {
    await expect(startDataServer({ testDatabase: database, replicas: { urls: [standby.via(database.ownerUrl)] } })).rejects.toThrow(/^Refusing to serve as postgres: it is a superuser/);
  });

  it('is refused at start when it is no copy of the primary\'s database: another database, or another cluster', async () => {
    const otherDatabase = new URL(standby.via(await database.serviceUrl()));
    otherDatabase.pathname = '/template1';
    // The suite's shared cluster: a database of the same name, the same service role, another cluster.
    const shared = await createTestDatabase();
    const otherCluster = new URL(await shared.serviceUrl());
    otherCluster.pathname = '/postgres';
    try {
      for (const url of [otherDatabase, otherCluster]) {
        await expect(startDataServer({ testDatabase: database, replicas: { urls: [url.toString()] } })).rejects.toThrow(
          new RegExp(`^replicas\\.urls names ${url.host.replace(/\./g, '\\.')}, which is no standby of the primary's database`),
        );
      }
    } finally {
      await shared.drop();
    }
  });

  it('is checked once it answers: a replica down at start is named in the warning, not the database', async () => {
    const warnings: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        warnings.push(JSON.parse(chunk.toString('utf8')).msg as string);
        done();
      },
    });
    const port = await freePort();
    const server = await startDataServer({ testDatabase: database, replicas: { urls: [standby.via(await database.serviceUrl()).replace(/:\d+\//, `:${port}/`)] }, logger: pino({ level: 'warn' }, sink) });
    await server.close();
    expect(warnings).toEqual([`the replica 127.0.0.1:${port} cannot be reached: its login is not checked, every connection asks for gatehouse_app`]);
  });
});

describe('an application\'s own data routes', () => {
  it('read on a replica as the registered ones do: a GET handler that writes is a fault the log names, never a 503', async () => {
    await standby.delayApply(0);
    const errors: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        errors.push((JSON.parse(chunk.toString('utf8')) as { err?: { message: string } }).err?.message ?? '');
        done();
      },
    });
    const dataRoutes = () =>
      new Router<DataState>().get('/visits', async (ctx) => {
        await sql`UPDATE posts SET title = title WHERE false`.execute(ctx.state.trx);
        ctx.body = {};
      });
    const server = await startTestServer({ testDatabase: database, replicas: { urls: [standby.via(await database.serviceUrl())], maxLagMs: 600_000 }, dataRoutes, logger: pino({ level: 'error' }, sink) });
    try {
      const token = await server.login('owner@globex.test');
      // The primary serves it until a poll finds the standby within the bound.
      let status = 200;
      await eventually(async () => (status = (await server.api.get('/api/globex/visits', { token })).status) !== 200);
      expect(status).toBe(500);
      expect(errors).toContainEqual(expect.stringMatching(/^GET \/api\/globex\/visits wrote in a read replica's read-only transaction/));
    } finally {
      await server.close();
    }
  });
});

describe('a standby busy with long reads', () => {
  it('keeps serving them: a poll is no read, and never waits for one', { timeout: 120_000 }, async () => {
    await standby.delayApply(0);
    const dataRoutes = () =>
      new Router<DataState>().get('/slow', async (ctx) => {
        await sql`SELECT pg_sleep(2)`.execute(ctx.state.trx);
        ctx.body = {};
      });
    const replicas = { urls: [standby.via(await database.serviceUrl())], maxLagMs: 600_000 };
    const server = await startTestServer({ testDatabase: database, replicas, dataRoutes, fairShare: { organization: 4, user: 4 }, metrics: { port: 0, host: '127.0.0.1' } });
    try {
      const token = await server.login('owner@globex.test');
      // As many reads at once as the standby's pool has connections (4), each longer than the second
      // of silence after which a standby is cut loose; a round counts once the standby served all four.
      await eventually(async () => {
        const before = await readsServed(server);
        const statuses = await Promise.all(Array.from({ length: 4 }, async () => (await server.api.get('/api/globex/slow', { token })).status));
        return statuses.every((status) => status === 200) && (await readsServed(server)).replica === before.replica + 4;
      });
    } finally {
      await server.close();
    }
  });
});

describe('a replica that lags or stops', () => {
  /** A server reading from the standby, replaying `delayMs` behind, signed in as globex's owner. */
  async function signedIn(delayMs: number, maxLagMs: number, use: (server: TestServer, token: string) => Promise<void>): Promise<void> {
    await standby.delayApply(delayMs);
    const server = await replicatedServer(maxLagMs);
    try {
      await use(server, await server.login('owner@globex.test'));
    } finally {
      await server.close();
    }
  }

  it('is skipped past the lag bound, and taken back once it has caught up', () =>
    signedIn(3_600_000, 500, async (server, token) => {
      // The login committed on the primary an hour ahead of the standby.
      await untilServedBy(server, token, 'primary');
      await standby.delayApply(0);
      await untilServedBy(server, token, 'replica');
    }));

  it('answers from the primary when the standby stops answering, without a failed request, and takes it back once it answers', () =>
    signedIn(0, 600_000, async (server, token) => {
      // Once a read went to the standby, the pool keeps a connection to it.
      await untilServedBy(server, token, 'replica');
      const before = await readsServed(server);
      standby.freeze();
      try {
        const statuses = await Promise.all(Array.from({ length: 4 }, async () => (await server.api.get('/api/globex/posts', { token })).status));
        expect(statuses).toEqual([200, 200, 200, 200]);
        // The metrics count them where they were served.
        expect(await readsServed(server)).toEqual({ replica: before.replica, primary: before.primary + 4 });
      } finally {
        standby.thaw();
      }
      await untilServedBy(server, token, 'replica');
    }));

  it('is skipped once promoted: what the primary commits next is read at once, not the promoted copy', async () => {
    // A standby of its own: a promoted server never follows the primary again.
    const promoted = await startStreamingReplica(database.ownerUrl, primaryDataDir, join(folder, 'promoted'));
    const server = await startDataServer({ testDatabase: database, replicas: { urls: [promoted.via(await database.serviceUrl())], maxLagMs: 600_000 } });
    try {
      const token = await server.login('owner@globex.test');
      const [post] = await server.sql<{ id: number }>(`SELECT min(p.id) AS id FROM posts p JOIN organizations o ON o.id = p.organization_id WHERE o.slug = 'globex'`);
      const title = async () => (await server.api.get(`/api/globex/posts/${post!.id}`, { token })).body.title as string;
      await promoted.query('SELECT pg_promote()');
      await server.sql('UPDATE posts SET title = $1 WHERE id = $2', ['after the promotion', post!.id]);
      await eventually(async () => (await title()) === 'after the promotion');
    } finally {
      await server.close();
      await promoted.stop();
    }
  });

  it('falls back to the primary when the standby is down, without a failed request', () =>
    signedIn(0, 600_000, async (server, token) => {
      const post = (await server.api.get('/api/globex/posts', { token })).body.data[0].id as number;
      await standby.stop();
      for (let attempt = 0; attempt < 50; attempt++) {
        expect((await server.api.get('/api/globex/posts', { token })).status).toBe(200);
        expect((await server.api.get(`/api/globex/posts/${post}`, { token })).status).toBe(200);
      }
      const metrics = await (await fetch(server.server.metricsUrl!)).text();
      expect(metrics).toMatch(/^gatehouse_replica_lag_seconds\{replica="127\.0\.0\.1:\d+"\} \+Inf$/m);
    }));
});

