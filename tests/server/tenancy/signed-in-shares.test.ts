import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/http-client.js';
import { until } from '../support/posts-lock.js';
import { settled, waitingOnLocks, whileLocked } from '../support/table-lock.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../support/test-server.js';

// Requests that open no member's tenant transaction still take pooled connections: a signed-in
// caller's slug check and organization creation, a session of any group's reserved-slug check,
// and anyone's sign-in, password recovery or invitation acceptance. Each must count against its
// user's share, or its client address's without a session, as a member's data request does, or
// one caller could take the whole pool with them. Their statements are held by a lock on a table
// they read, taken in another connection, so the test counts them waiting on it. The pool has 4
// connections, a share is 2, and a request past it waits 200 ms: the held ones cannot end before
// the lock goes, so a request past the share is refused, however slow the machine.

let server: TestServer;
let locker: pg.Client;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({ trustProxy: true, fairShare: { organization: 2, user: 2, waitMs: 200 }, requestTimeoutMs: 60_000 });
  for (const email of ['viewer@acme.test', 'owner@globex.test']) tokens[email] = await server.login(email);
  locker = new pg.Client({ connectionString: server.database.ownerUrl });
  await locker.connect();
});

afterAll(async () => {
  await locker.end();
  await server.close();
});

/** The requests that hold a pooled connection, their statements waiting for the lock. */
const held = () => waitingOnLocks(server);

/**
 * Sends `first` while `table` is locked and waits until both hold a connection on the lock, then
 * sends `past` from the same caller and, once they are answered (or hold connections of their
 * own), `other`'s request from another caller: how many of `past` took a connection, the answers.
 */
async function pastShare(table: string, first: (() => Promise<ApiResponse>)[], past: (() => Promise<ApiResponse>)[], other: () => Promise<ApiResponse>) {
  return whileLocked(locker, table, async () => {
    const firstSent = first.map((send) => send());
    await until(async () => (await held()) >= first.length);
    const answered = settled(past.map((send) => send()));
    // Before the fix these went on to hold connections, past the share.
    await until(async () => answered.length === past.length || (await held()) > first.length);
    const heldPastShare = (await held()) - first.length;
    const otherSent = other();
    await until(async () => (await held()) >= first.length + 1);
    return { heldPastShare, first: firstSent, past: answered, other: otherSent };
  });
}

const asUser = (email: string) => ({ token: tokens[email] });
const exists = (email: string, slug: string) => () => server.api.get(`/api/${slug}/organizations/exists`, asUser(email));
const fromAddress = (address: string) => ({ headers: { 'x-forwarded-for': address } });
const login = (email: string, address: string) => () => server.api.post('/api/auth/login', { ...fromAddress(address), body: { email, password: DEMO_PASSWORD } });

describe('requests outside a member’s tenant transaction', () => {
  it("count against the signed-in user's share: past it they are refused while another user is served", async () => {
    const viewer = 'viewer@acme.test';
    const outcome = await pastShare(
      'organizations',
      [exists(viewer, 'acme'), exists(viewer, 'no-such-org')],
      [() => server.api.post('/api/organizations', { ...asUser(viewer), body: { name: 'Hog', slug: 'hog-works' } }), exists(viewer, 'globex'), exists(viewer, 'admin')],
      exists('owner@globex.test', 'globex'),
    );
    expect(outcome.heldPastShare).toBe(0);
    expect(outcome.past).toHaveLength(3);
    for (const answer of outcome.past) {
      expect(answer).toMatchObject({
        status: 429,
        headers: { 'retry-after': '1' },
        body: { message: "You already have 2 requests running, your share of the service's database connections. Please try again in 1 second." },
      });
    }
    const [acme, unknown] = await Promise.all(outcome.first);
    expect(acme).toMatchObject({ status: 200, body: { exists: true } });
    expect(unknown).toMatchObject({ status: 200, body: { exists: false } });
    expect(await outcome.other).toMatchObject({ status: 200, body: { exists: true, organization: { slug: 'globex' } } });
    expect(await server.sql("SELECT 1 FROM organizations WHERE slug = 'hog-works'")).toEqual([]);
  });

  it("count against the client address's share without a session: past it they are refused while another address is served", async () => {
    const address = '203.0.113.40';
    const { heldPastShare, first, past, other } = await pastShare(
      'users',
      [login('owner@acme.test', address), login('editor@acme.test', address)],
      [
        login('viewer@acme.test', address),
        () => server.api.post('/api/auth/password/recover', { ...fromAddress(address), body: { email: 'viewer@acme.test' } }),
        () => server.api.post('/api/invitations/accept', { ...fromAddress(address), body: { token: 'no-such-invitation' } }),
      ],
      login('viewer@acme.test', '203.0.113.41'),
    );
    expect(heldPastShare).toBe(0);
    expect(past).toHaveLength(3);
    for (const answer of past) {
      expect(answer).toMatchObject({
        status: 429,
        headers: { 'retry-after': '1' },
        body: { message: "Your address already has 2 requests running, its share of the service's database connections. Please try again in 1 second." },
      });
    }
    expect((await Promise.all(first)).map((answer) => answer.status)).toEqual([200, 200]);
    expect((await other).status).toBe(200);
  });

  it('leave health and readiness uncounted while an address has its share running', async () => {
    const address = '203.0.113.50';
    const answers = await whileLocked(locker, 'users', async () => {
      const sent = [login('owner@acme.test', address)(), login('editor@acme.test', address)()];
      await until(async () => (await held()) >= 2);
      const probes = await Promise.all(['/api/health', '/api/ready'].map((path) => server.api.get(path, fromAddress(address))));
      return { sent, probes };
    });
    expect(answers.probes.map((answer) => answer.status)).toEqual([200, 200]);
    expect((await Promise.all(answers.sent)).map((answer) => answer.status)).toEqual([200, 200]);
  });

  it('give their places back on every path: answered, refused past the share, refused as invalid', async () => {
    const viewer = 'viewer@acme.test';
    expect((await server.api.post('/api/organizations', { ...asUser(viewer), body: { slug: '' } })).status).toBe(422);
    // Were any place of the tests above, or of the 422, still counted, one of these would wait its 200 ms and be refused.
    const statuses = await whileLocked(locker, 'organizations', async () => {
      const sent = [exists(viewer, 'acme')(), exists(viewer, 'globex')()];
      const refused = settled(sent);
      await until(async () => refused.length > 0 || (await held()) >= 2);
      return { refused: refused.map((answer) => answer.status), sent };
    });
    expect(statuses.refused).toEqual([]);
    expect((await Promise.all(statuses.sent)).map((answer) => answer.status)).toEqual([200, 200]);
  });
});
