import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccounts, createTenant, type Account, type Tenant } from '../support/tenant-fixture.js';
import { startDataServer } from '../support/data-server.js';
import { MAX_WAITING_PER_CALLER } from '../../../server/models/request-limits.js';
import { postsLock, until, type PostsLock } from '../support/posts-lock.js';
import type { TestServer } from '../support/test-server.js';

// Attacks on the fair shares of the pool (4 connections here): an organization may hold 2, a
// user 2. Requests are held the way a slow read holds them: `posts` is locked by another
// connection, so a read of posts sent with its request's opening waits with its pooled
// connection, and its request holds its shares, until the lock goes (the statements' deadline is
// a minute). The wait for a share is long (10 s), so nothing here depends on how fast the machine
// is: a request that would wait for a share is one this test sees failing.

let server: TestServer;
let lock: PostsLock;

beforeAll(async () => {
  server = await startDataServer({ metrics: { port: 0, host: '127.0.0.1' }, fairShare: { organization: 2, user: 2, waitMs: 10_000 }, requestTimeoutMs: 60_000 });
  lock = await postsLock(server);
});

afterAll(async () => {
  await lock.end();
  await server.close();
});

const posts = (tenant: Tenant, account: Account) => server.api.get(tenant.path('/posts'), { token: account.token });
const members = (tenant: Tenant, account: Account) => server.api.get(tenant.path('/members'), { token: account.token });

const metrics = async () => {
  const text = await (await fetch(server.server.metricsUrl!)).text();
  const sample = (series: string) => Number(text.split('\n').find((line) => line.startsWith(`${series} `))?.split(' ').at(-1));
  return {
    waiting: sample('gatehouse_fair_share_waiting'),
    waited: sample('gatehouse_fair_share_waits_total{share="organization"}') + sample('gatehouse_fair_share_waits_total{share="user"}'),
    refused: sample('gatehouse_fair_share_refusals_total{share="organization"}') + sample('gatehouse_fair_share_refusals_total{share="user"}'),
  };
};

/** Two requests of `first` and `second` fill the organization's share (2): a third request of its members waits in line, and all three answer once the first two finish. */
async function organizationShareFull(tenant: Tenant, first: Account, second: Account): Promise<void> {
  const before = await metrics();
  const statuses = await lock.whileHeld([() => posts(tenant, first), () => posts(tenant, second)], async () => {
    const third = members(tenant, second);
    await until(async () => (await metrics()).waiting === 1);
    return [third];
  });
  expect(statuses).toEqual([200, 200, 200]);
  expect((await metrics()).waited).toBe(before.waited + 1);
}

describe("an organization's share of the pool", () => {
  it('is not used up by signed-in outsiders: their requests count against their own shares only', async () => {
    const [member, outsider, accomplice] = await createAccounts(server, 'member', 'outsider', 'accomplice');
    const victim = await createTenant(server, [{ account: member, role: 'owner' }]);
    expect((await posts(victim, member)).status).toBe(200);
    // Before the fix: the victim's share (2) was full of the outsiders' requests, and its owner
    // waited 10 s for a 429.
    const statuses = await lock.whileHeld([() => posts(victim, outsider), () => posts(victim, accomplice)], async () => [await members(victim, member)]);
    expect(statuses).toEqual([404, 404, 200]);
  });

  it('stops counting a removed member from the first request after the removal', async () => {
    const [owner, leaver] = await createAccounts(server, 'owner', 'leaver');
    const victim = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: leaver, role: 'viewer' },
    ]);
    for (const account of [owner, leaver]) expect((await posts(victim, account)).status).toBe(200);
    await server.sql('DELETE FROM user_roles WHERE user_id = $1 AND organization_id = $2', [leaver.id, victim.id]);
    expect((await posts(victim, leaver)).status).toBe(404);
    const statuses = await lock.whileHeld([() => posts(victim, leaver), () => posts(victim, leaver)], async () => [await members(victim, owner)]);
    expect(statuses).toEqual([404, 404, 200]);
  });

  it('holds a removed member to it again once re-added and seen as a member', async () => {
    const [owner, returner] = await createAccounts(server, 'owner', 'returner');
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: returner, role: 'owner' },
    ]);
    expect((await posts(tenant, returner)).status).toBe(200);
    await server.sql('DELETE FROM user_roles WHERE user_id = $1 AND organization_id = $2', [returner.id, tenant.id]);
    expect((await posts(tenant, returner)).status).toBe(404);
    await server.sql("INSERT INTO user_roles (user_id, organization_id, role_id, route_group) SELECT $1, $2, id, 'tenant' FROM roles WHERE slug = 'owner'", [returner.id, tenant.id]);
    for (const account of [owner, returner]) expect((await posts(tenant, account)).status).toBe(200);
    // The returner counts against the organization again.
    await organizationShareFull(tenant, returner, owner);
  });

  it('still holds its members to it', async () => {
    const [first, second] = await createAccounts(server, 'first', 'second');
    const tenant = await createTenant(server, [
      { account: first, role: 'owner' },
      { account: second, role: 'owner' },
    ]);
    for (const account of [first, second]) expect((await posts(tenant, account)).status).toBe(200);
    await organizationShareFull(tenant, first, second);
  });
});

describe('a request waiting for its share', () => {
  it('leaves the line when its client goes away, taking nothing and freeing nothing', async () => {
    const [member] = await createAccounts(server, 'member');
    const tenant = await createTenant(server, [{ account: member, role: 'owner' }]);
    expect((await posts(tenant, member)).status).toBe(200);
    const before = await metrics();
    const statuses = await lock.whileHeld([() => posts(tenant, member), () => posts(tenant, member)], async () => {
      // A third request of the same member waits for a share; its client then gives up.
      const gone = httpRequest(new URL(tenant.path('/posts'), server.api.baseUrl), { headers: { authorization: `Bearer ${member.token}` } });
      gone.on('error', () => {});
      gone.end();
      await until(async () => (await metrics()).waiting === 1);
      gone.destroy();
      // Before the fix it stayed in line until its wait ended (10 s), and was then refused.
      await until(async () => (await metrics()).waiting === 0);
      expect(await metrics()).toMatchObject({ waited: before.waited + 1, refused: before.refused });
      // The two running requests still hold the shares: the next request waits its turn.
      const next = members(tenant, member);
      await until(async () => (await metrics()).waiting === 1);
      return [next];
    });
    expect(statuses).toEqual([200, 200, 200]);
    expect(await metrics()).toMatchObject({ waiting: 0, waited: before.waited + 2, refused: before.refused });
  });
});

describe("one caller's requests waiting for a share", () => {
  it(`are at most ${MAX_WAITING_PER_CALLER}: past them, a request is refused at once instead of joining a line without end`, async () => {
    const [crowd] = await createAccounts(server, 'crowd');
    const tenant = await createTenant(server, [{ account: crowd, role: 'owner' }]);
    expect((await posts(tenant, crowd)).status).toBe(200);
    const before = await metrics();
    const past = 3;
    let refusedAtOnce = 0;
    // Its 2 places run (held on the lock), the most that may wait wait, and the 3 past them are answered while the
    // others are still held, long before the 10 s wait would refuse anything.
    const statuses = await lock.whileHeld([() => posts(tenant, crowd), () => posts(tenant, crowd)], async () => {
      const crowded = Array.from({ length: MAX_WAITING_PER_CALLER + past }, async () => {
        const answer = await posts(tenant, crowd);
        if (answer.status === 429) refusedAtOnce += 1;
        return answer;
      });
      await until(async () => (await metrics()).waiting + refusedAtOnce === MAX_WAITING_PER_CALLER + past);
      return crowded;
    });
    expect(statuses.filter((status) => status === 429)).toHaveLength(past);
    expect(statuses.filter((status) => status === 200)).toHaveLength(2 + MAX_WAITING_PER_CALLER);
    expect(await metrics()).toMatchObject({ waiting: 0, waited: before.waited + MAX_WAITING_PER_CALLER, refused: before.refused + past });
  });
});

describe('a storm of requests whose clients leave, waiting or running', () => {
  it('gives every place back: afterwards the shares hold exactly as many requests as before', async () => {
    const [first, second] = await createAccounts(server, 'stormer', 'bystander');
    const tenant = await createTenant(server, [
      { account: first, role: 'owner' },
      { account: second, role: 'owner' },
    ]);
    for (const account of [first, second]) expect((await posts(tenant, account)).status).toBe(200);
    const before = await metrics();
    const send = (account: Account) => {
      const request = httpRequest(new URL(tenant.path('/posts'), server.api.baseUrl), { headers: { authorization: `Bearer ${account.token}` } });
      const answered = new Promise<number | 'gone'>((resolve) => {
        request.on('response', (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode!));
        });
        request.on('error', () => resolve('gone'));
      });
      request.end();
      return { request, answered };
    };
    const release = await lock.take();
    let storm: ReturnType<typeof send>[] = [];
    try {
      // The organization's 2 places run (held on the lock); 10 more wait in line.
      storm = Array.from({ length: 12 }, (_, index) => send(index % 2 === 0 ? first : second));
      await until(async () => (await lock.waiting()) >= 2);
      await until(async () => (await metrics()).waiting === 10);
      // Every other client leaves, waiting or running (which two run is the server's pick): a
      // running one's place goes to the next in line, so six remain, two running and four waiting.
      for (const { request } of storm.filter((_, index) => index % 2 === 1)) request.destroy();
      await until(async () => (await metrics()).waiting === 4);
    } finally {
      // Places free while the last clients leave in the same turn.
      const released = release();
      storm[2]?.request.destroy();
      storm[4]?.request.destroy();
      await released;
    }
    const statuses = await Promise.all(storm.map(({ answered }) => answered));
    expect(statuses.filter((status) => status !== 'gone').every((status) => status === 200)).toBe(true);
    expect(await metrics()).toMatchObject({ waiting: 0, refused: before.refused });
    // Nothing leaked or went below zero: two requests fill the organization's share, a third waits.
    await organizationShareFull(tenant, first, second);
  });
});

describe('pipelined requests whose client closes the connection', () => {
  it('are all stopped: none goes on running, or waits for a share, for a client that is gone', async () => {
    const [member] = await createAccounts(server, 'pipeliner');
    const tenant = await createTenant(server, [{ account: member, role: 'owner' }]);
    expect((await posts(tenant, member)).status).toBe(200);
    const before = await metrics();
    const release = await lock.take();
    try {
      const { hostname, port } = new URL(server.api.baseUrl);
      const socket = connect(Number(port), hostname);
      socket.on('error', () => {});
      await once(socket, 'connect');
      // Two run (held on the lock), the third waits for the user's share.
      socket.write(`GET ${tenant.path('/posts')} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${member.token}\r\n\r\n`.repeat(3));
      await until(async () => (await lock.waiting()) >= 2);
      await until(async () => (await metrics()).waiting === 1);
      socket.destroy();
      // Before the fix only the first answer's request heard the client leave: the second went
      // on waiting for the lock, and the third took the first's place and waited too.
      await until(async () => (await metrics()).waiting === 0);
      await until(async () => (await lock.waiting()) === 0);
    } finally {
      await release();
    }
    expect(await metrics()).toMatchObject({ waiting: 0, refused: before.refused });
  });
});
