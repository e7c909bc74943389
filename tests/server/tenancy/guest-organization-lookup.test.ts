import { request } from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/posts-lock.js';
import { settled, waitingOnLocks, whileLocked } from '../support/table-lock.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// A guest's request (a group without auth) first looks up the organization its slug names, on a
// pooled connection. That lookup must count against the guest's address share like the rest of
// its request, or one client could take the whole pool with lookups alone. Lookups are held here
// by a lock on `organizations` in another connection, so the test counts them waiting on it. The
// pool has 4 connections, an address's share is 2, and a request past it waits 200 ms: the held
// lookups cannot end before the lock goes, so a request past the share is refused, however
// slow the machine.

let server: TestServer;
let locker: pg.Client;

beforeAll(async () => {
  server = await startTestServer({ trustProxy: true, fairShare: { organization: 2, user: 2, waitMs: 200 }, requestTimeoutMs: 60_000, metrics: { port: 0, host: '127.0.0.1' } });
  locker = new pg.Client({ connectionString: server.database.ownerUrl });
  await locker.connect();
});

afterAll(async () => {
  await locker.end();
  await server.close();
});

/** A guest's request from `address`, as the trusted proxy in front names it. */
const guest = (slug: string, address: string) => server.api.get(`/api/public/${slug}/probe`, { headers: { 'x-forwarded-for': address } });

/** Sends a guest's request; the function it answers makes its client go away. */
function leaving(slug: string, address: string): () => void {
  const sent = request(new URL(`/api/public/${slug}/probe`, server.api.baseUrl), { headers: { 'x-forwarded-for': address } });
  sent.on('error', () => {});
  sent.end();
  return () => sent.destroy();
}

/** The server's statements waiting for the lock: the lookups that hold a pooled connection. */
const heldLookups = () => waitingOnLocks(server);

/** How many requests of the guests' group the server has answered, or given up on as their client left. */
async function publicAnswers(): Promise<number> {
  const text = await (await fetch(server.server.metricsUrl!)).text();
  const counts = text.split('\n').filter((line) => line.startsWith('http_request_duration_seconds_count{') && line.includes('route_group="public"'));
  return counts.reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

/** Runs fn while `organizations` is locked against every read. */
const whileLookupsHeld = <T>(fn: () => Promise<T>) => whileLocked(locker, 'organizations', fn);

describe("a guest's organization lookup", () => {
  it("counts against its address's share: past it a guest is refused, known slug or not, while other addresses are served", async () => {
    const address = '203.0.113.20';
    const { held, pastShare, other } = await whileLookupsHeld(async () => {
      const held = [guest('acme', address), guest('no-such-org', address)];
      await until(async () => (await heldLookups()) >= 2);
      const pastShare = [guest('globex', address), guest('another-unknown-org', address)];
      const answered = settled(pastShare);
      // Before the fix both went on to their lookups on pooled connections, past the share.
      await until(async () => answered.length === 2 || (await heldLookups()) > 2);
      const lookupsPastShare = (await heldLookups()) - 2;
      expect(lookupsPastShare).toBe(0);
      // Another address has a share of its own: its lookup takes a connection at once.
      const other = guest('acme', '203.0.113.21');
      await until(async () => (await heldLookups()) >= 3);
      return { held, pastShare: answered, other };
    });
    for (const answer of pastShare) {
      expect(answer).toMatchObject({
        status: 429,
        headers: { 'retry-after': '1' },
        body: { message: "Your address already has 2 requests running, its share of the service's database connections. Please try again in 1 second." },
      });
    }
    // Once the lock goes, the held lookups answer as they always do: an unknown slug its usual 404.
    const [known, unknown] = await Promise.all(held);
    expect(known).toMatchObject({ status: 200, body: { organization: 'acme' } });
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Organization not found' } });
    expect((await other).status).toBe(200);
  });

  it('gives its share back on every path: a found organization, an unknown slug, a client gone while its lookup ran', async () => {
    const address = '203.0.113.30';
    const answered = await publicAnswers();
    const unknown = await whileLookupsHeld(async () => {
      const leave = leaving('acme', address);
      const unknown = guest('no-such-org', address);
      await until(async () => (await heldLookups()) >= 2);
      leave();
      return { answer: unknown };
    });
    expect((await unknown.answer).status).toBe(404);
    // The server is done with both, the one whose client left too.
    await until(async () => (await publicAnswers()) >= answered + 2);
    // Were either still counted, one of these would wait its 200 ms behind the lock and be refused.
    const statuses = await whileLookupsHeld(async () => {
      const sent = [guest('acme', address), guest('no-such-org', address)];
      const refused = settled(sent);
      await until(async () => refused.length > 0 || (await heldLookups()) >= 2);
      return { refused: refused.map((answer) => answer.status), sent };
    });
    expect(statuses.refused).toEqual([]);
    expect((await Promise.all(statuses.sent)).map((answer) => answer.status)).toEqual([200, 404]);
  });
});
