import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envConfig } from '../../../server/cli/env-config.js';
import { readEnvironment } from '../../../server/cli/environment.js';
import { resolveConfig } from '../../../server/config/server-config.js';
import type { ApiResponse } from '../support/http-client.js';
import { postId, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// One tenant must not take the whole pool (4 connections here). Its requests are made slow the
// way a real one is: the post they update is locked by another connection, so each holds its
// pooled connection until the lock goes. Defaults: an organization at most half the pool (2),
// a user at most a quarter (1).

let server: TestServer;
let locker: pg.Client;
let post: number;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  // The shares are the defaults; the wait is shorter than its default (3 s), to keep the test fast.
  server = await startDataServer({ metrics: { port: 0, host: '127.0.0.1' }, fairShare: { waitMs: 200 } });
  // A third acme member who may update posts.
  await server.sql(`INSERT INTO user_roles (user_id, organization_id, role_id, route_group)
    SELECT u.id, o.id, r.id, 'tenant' FROM users u, organizations o, roles r
    WHERE u.email = 'admin@example.test' AND o.slug = 'acme' AND r.slug = 'editor'`);
  for (const email of ['owner@acme.test', 'editor@acme.test', 'admin@example.test', 'owner@globex.test']) tokens[email] = await server.login(email);
  // A request counts against its organization once its user is known as a member: by a request
  // of theirs before (tenancy/known-members.ts).
  for (const email of ['owner@acme.test', 'editor@acme.test', 'admin@example.test']) expect((await server.api.get('/api/acme/posts', { token: tokens[email] })).status).toBe(200);
  post = await postId(server, 'Welcome to Acme');
  locker = new pg.Client({ connectionString: server.database.ownerUrl });
  await locker.connect();
});

afterAll(async () => {
  await locker.end();
  await server.close();
});

/** Requests of the server's database waiting for a row lock: the hog's requests that hold a connection. */
async function heldOnLock(count: number): Promise<void> {
  for (;;) {
    const [row] = await server.sql<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [server.database.name]);
    if (row!.n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Sends `emails`' updates of the locked post at once, waits until `held` of them hold a
 * connection, runs `meanwhile`, then answers the ones refused (the others cannot finish while the
 * lock holds) and, once the lock goes, the ones that held a connection.
 */
async function hog(emails: string[], held: number, meanwhile: () => Promise<void>): Promise<{ refused: ApiResponse[]; served: ApiResponse[] }> {
  await locker.query('BEGIN');
  await locker.query('SELECT id FROM posts WHERE id = $1 FOR UPDATE', [post]);
  const settled: ApiResponse[] = [];
  const requests = emails.map((email) =>
    server.api.request('PATCH', `/api/acme/posts/${post}`, { token: tokens[email], body: { title: 'Hogged' } }).then((response) => {
      settled.push(response);
      return response;
    }),
  );
  try {
    await heldOnLock(held);
    await meanwhile();
    while (settled.length < emails.length - held) await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    await locker.query('ROLLBACK');
  }
  const answers = await Promise.all(requests);
  return { refused: answers.filter((answer) => answer.status !== 200), served: answers.filter((answer) => answer.status === 200) };
}

/** The fair-share series (waits and refusals by share, requests waiting now), which name no tenant. */
async function shareMetrics() {
  const text = await (await fetch(server.server.metricsUrl!)).text();
  expect(text).not.toMatch(/acme|globex|example\.test/);
  const sample = (series: string) => Number(text.split('\n').find((line) => line.startsWith(`${series} `))?.split(' ').at(-1));
  const byShare = (name: string) => ({ organization: sample(`${name}{share="organization"}`), user: sample(`${name}{share="user"}`) });
  return { waits: byShare('gatehouse_fair_share_waits_total'), refusals: byShare('gatehouse_fair_share_refusals_total'), waiting: sample('gatehouse_fair_share_waiting') };
}

describe('fair shares of the database pool', () => {
  it('serves another organization while one organization holds its share; the rest of its requests get 429', async () => {
    const before = await shareMetrics();
    const acme = ['owner@acme.test', 'editor@acme.test', 'admin@example.test'];
    const { refused, served } = await hog([...acme, ...acme], 2, async () => {
      const victim = await server.api.get('/api/globex/posts', { token: tokens['owner@globex.test'] });
      expect(victim.status).toBe(200);
    });
    expect(served).toHaveLength(2);
    expect(refused).toHaveLength(4);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.body.message).toBe("This organization already has 2 requests running, its share of the service's database connections. Please try again in 1 second.");
    }
    // Counted by share, never by tenant. A wait counts against the share that was full when the
    // request came: the organization's, or the user's for a request that came in behind its own
    // user's, in whatever order the six requests reach the server. Every refused request waited.
    const after = await shareMetrics();
    expect(after.refusals).toEqual({ organization: before.refusals.organization + 4, user: before.refusals.user });
    expect(after.waits.organization + after.waits.user).toBe(before.waits.organization + before.waits.user + 4);
    expect(after.waiting).toBe(0);
  });

  it('serves the same organization’s other users while one user holds their share', async () => {
    const before = await shareMetrics();
    const { refused, served } = await hog(Array(5).fill('editor@acme.test'), 1, async () => {
      const colleague = await server.api.get('/api/acme/posts', { token: tokens['owner@acme.test'] });
      expect(colleague.status).toBe(200);
    });
    expect(served).toHaveLength(1);
    expect(refused.map((answer) => answer.status)).toEqual([429, 429, 429, 429]);
    expect(refused[0]!.body.message).toBe("You already have 1 request running, your share of the service's database connections. Please try again in 1 second.");
    const after = await shareMetrics();
    expect(after.refusals).toEqual({ organization: before.refusals.organization, user: before.refusals.user + 4 });
    expect(after.waits).toEqual({ organization: before.waits.organization, user: before.waits.user + 4 });
    expect(after.waiting).toBe(0);
  });
});

describe('the fairShare setting', () => {
  const shares = (env: NodeJS.ProcessEnv) => resolveConfig(envConfig(readEnvironment(env), 'postgres://unused', 'k4.secret.unused')).fairShare;

  it('is half the pool per organization and a quarter per user, after 3 s of waiting, unless set', () => {
    expect(shares({})).toEqual({ organization: 5, user: 2, waitMs: 3000 });
    expect(shares({ GATEHOUSE_DB_POOL: '40' })).toEqual({ organization: 20, user: 10, waitMs: 3000 });
    expect(shares({ GATEHOUSE_DB_POOL: '2' })).toEqual({ organization: 1, user: 1, waitMs: 3000 });
  });

  it('takes a fraction of the pool or a number of connections from the environment', () => {
    expect(shares({ GATEHOUSE_FAIR_SHARE_ORGANIZATION: '0.8', GATEHOUSE_FAIR_SHARE_USER: '3', GATEHOUSE_FAIR_SHARE_WAIT_MS: '250' })).toEqual({ organization: 8, user: 3, waitMs: 250 });
    expect(shares({ GATEHOUSE_FAIR_SHARE_USER: '50' }).user).toBe(10);
    expect(() => shares({ GATEHOUSE_FAIR_SHARE_USER: 'half' })).toThrow('GATEHOUSE_FAIR_SHARE_USER must be a fraction of the pool below 1 or a whole number of connections');
    expect(() => shares({ GATEHOUSE_FAIR_SHARE_USER: '1.5' })).toThrow('fairShare.user must be a fraction of the pool below 1 or a whole number of connections.');
  });

  // Node runs a timer past 2^31 - 1 ms after 1 ms: a longer wait, accepted, refused at once.
  it('is refused a wait longer than a timer may run', () => {
    expect(shares({ GATEHOUSE_FAIR_SHARE_WAIT_MS: '2147483647' }).waitMs).toBe(2_147_483_647);
    expect(() => shares({ GATEHOUSE_FAIR_SHARE_WAIT_MS: '2147483648' })).toThrow('fairShare.waitMs must be a whole number of milliseconds from 0 to 2147483647.');
  });
});
