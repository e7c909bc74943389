import Router from '@koa/router';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataState } from '../../../server/http/state.js';
import type { RouteGroup } from '../../../server/models/route-group.js';
import { createAccounts, createTenant } from '../support/tenant-fixture.js';
import { postsLock, until, type PostsLock } from '../support/posts-lock.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Guests of a route group without auth (`public/{organization}`, as an application opens a page
// to anyone) have no user: their requests count against a share of their client address, never
// against the organization's. Shares here: an organization 2, a user (and so an address) 2, of a
// pool of 4. A guest's read of posts is held the way a slow read is held: `posts` is locked by
// another connection. The wait for a share is long (10 s), so a request that would wait for a
// share is one this test sees failing, however slow the machine.

let server: TestServer;
let lock: PostsLock;

// An application's own public pages: a count of the organization's posts, and one that reads nothing of them.
const publicPages = (group: RouteGroup) =>
  group.auth
    ? undefined
    : new Router<DataState>()
        .get('/post-count', async (ctx) => {
          const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM posts`.execute(ctx.state.trx);
          ctx.body = { posts: rows[0]!.n };
        })
        .get('/hello', (ctx) => {
          ctx.body = { organization: ctx.state.organization?.slug };
        });

beforeAll(async () => {
  server = await startTestServer({
    dataRoutes: publicPages,
    trustProxy: true,
    metrics: { port: 0, host: '127.0.0.1' },
    fairShare: { organization: 2, user: 2, waitMs: 10_000 },
    requestTimeoutMs: 60_000,
  });
  lock = await postsLock(server);
});

afterAll(async () => {
  await lock.end();
  await server.close();
});

/** A guest's request from `address`, as the trusted proxy in front names it. */
const guest = (slug: string, page: string, address: string) => server.api.get(`/api/public/${slug}${page}`, { headers: { 'x-forwarded-for': address } });

const metrics = async () => {
  const text = await (await fetch(server.server.metricsUrl!)).text();
  expect(text).not.toMatch(/2001:db8|203\.0\.113/);
  const sample = (series: string) => Number(text.split('\n').find((line) => line.startsWith(`${series} `))?.split(' ').at(-1));
  return {
    waiting: sample('gatehouse_fair_share_waiting'),
    waits: { organization: sample('gatehouse_fair_share_waits_total{share="organization"}'), address: sample('gatehouse_fair_share_waits_total{share="address"}') },
  };
};

describe('guests of a group without auth', () => {
  it("never use up their organization's share: its members are served while one guest holds its requests", async () => {
    const [member] = await createAccounts(server, 'member');
    const tenant = await createTenant(server, [{ account: member, role: 'owner' }]);
    const members = () => server.api.get(tenant.path('/members'), { token: member.token });
    expect((await members()).status).toBe(200);
    const statuses = await lock.whileHeld([() => guest(tenant.slug, '/post-count', '203.0.113.7'), () => guest(tenant.slug, '/post-count', '203.0.113.7')], async () => [
      // Before the fix: the guest's two requests filled the organization's share (2), and its
      // owner waited 10 s for a 429.
      await members(),
      await guest(tenant.slug, '/hello', '203.0.113.8'),
    ]);
    expect(statuses).toEqual([200, 200, 200, 200]);
  });

  it('are held to a share of their address, an IPv6 client to its /64', async () => {
    const tenant = await createTenant(server, []);
    const before = await metrics();
    const statuses = await lock.whileHeld([() => guest(tenant.slug, '/post-count', '2001:db8::1'), () => guest(tenant.slug, '/post-count', '2001:db8::ffff:1')], async () => {
      // The same /64 has its 2 running: its third request waits its turn.
      const third = guest(tenant.slug, '/hello', '2001:db8:0:0:1::5');
      await until(async () => (await metrics()).waiting === 1);
      // Another /64 is another client, served at once.
      return [third, await guest(tenant.slug, '/hello', '2001:db8:0:1::1')];
    });
    expect(statuses).toEqual([200, 200, 200, 200]);
    const after = await metrics();
    expect(after.waits).toEqual({ organization: before.waits.organization, address: before.waits.address + 1 });
    expect(after.waiting).toBe(0);
  });
});
