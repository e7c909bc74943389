import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postId, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// One viewer's flood of refusals must not fill the stored decision log: an organization keeps at
// most its share of rows per minute, the rest is counted, and other organizations are logged.

const SHARE = 40;
const FLOOD = 120;
let server: TestServer;
let viewer: string;
let globexOwner: string;

beforeAll(async () => {
  server = await startDataServer({ decisionLog: { store: 'database', organizationPerMinute: SHARE } });
  viewer = await server.login('viewer@acme.test');
  globexOwner = await server.login('owner@globex.test');
});

afterAll(() => server.close());

const minute = () => Math.floor(Date.now() / 60_000);
const stored = async (slug: string) =>
  (await server.sql<{ n: number }>('SELECT count(*)::int AS n FROM decision_logs d JOIN organizations o ON o.id = d.organization_id WHERE o.slug = $1', [slug]))[0]!.n;

describe('the decision log’s share per organization', () => {
  it('stores an organization’s refusals up to its share per minute, counts the rest, and still logs other organizations', async () => {
    const post = await postId(server, 'Welcome to Acme');
    const started = minute();
    for (let sent = 0; sent < FLOOD; sent += 20) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => server.api.delete(`/api/acme/posts/${post}`, { token: viewer })));
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(403));
    }
    expect((await server.api.get(`/api/globex/posts/${post}`, { token: globexOwner })).status).toBe(404);
    const minutes = minute() - started + 1;
    await server.server.decisionStore!.drain();

    const acme = await stored('acme');
    // Within one minute (the usual case) exactly the share; a flood across a minute's end may store one more share.
    expect(acme).toBeGreaterThanOrEqual(SHARE);
    expect(acme).toBeLessThanOrEqual(SHARE * minutes);
    expect(await stored('globex')).toBe(1);
    const stats = server.server.decisionStore!.stats();
    expect(stats.overShare).toBe(FLOOD - acme);
    expect(stats.written).toBe(acme + 1);
  });
});
