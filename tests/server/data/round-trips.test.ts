import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACME_HOST, postId, startDataServer } from '../support/data-server.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import type { TestServer } from '../support/test-server.js';
import { organizationIds } from '../../../server/tenancy/organization-ids.js';

// A read sends its transaction's opening, its statements and COMMIT in one write
// (server/db/transactions/read-ahead.ts). Round trips are counted on the wire, by a TCP proxy between the
// server and PostgreSQL: each time the server writes after PostgreSQL last answered it, it waits
// again. What a read sends ahead is never answered to a caller the gates refuse.

let proxy: TcpProxy;
let server: TestServer;
const tokens = { owner: '', viewer: '', contributor: '', globex: '', admin: '', revoked: '', portal: '' };
let welcome: number;
let roadmap: number;

beforeAll(async () => {
  proxy = await startTcpProxy(Number(new URL(inject('clusterUrl')).port));
  server = await startDataServer({ databasePort: proxy.port });
  tokens.owner = await server.login('owner@acme.test');
  tokens.viewer = await server.login('viewer@acme.test');
  tokens.contributor = await server.login('contributor@acme.test');
  tokens.globex = await server.login('owner@globex.test');
  tokens.admin = await server.login('admin@example.test', { path: '/api/admin/auth/login' });
  tokens.revoked = await server.login('owner@acme.test');
  await server.api.post('/api/auth/logout', { token: tokens.revoked });
  welcome = await postId(server, 'Welcome to Acme');
  roadmap = await postId(server, 'Quarterly roadmap');
  await server.api.delete(`/api/acme/posts/${welcome}`, { token: tokens.owner });
  await server.sql(`INSERT INTO user_roles (user_id, organization_id, role_id, route_group)
    SELECT u.id, o.id, r.id, 'portal' FROM users u, organizations o, roles r
    WHERE u.email = 'owner@acme.test' AND o.slug = 'acme' AND r.slug = 'owner'`);
  tokens.portal = await server.login('owner@acme.test', { host: ACME_HOST });
});

afterAll(async () => {
  await server.close();
  await proxy.stop();
});

type Caller = keyof typeof tokens;

/** What a tenant transaction of its own opens with (`tenantOpeningSql`). */
const REOPENING = "set_config('gatehouse.organization_id'";

/**
 * A request and its round trips: those of the connection that carried its opening, from the
 * opening to the end of its transaction (the pool's other connections serve background work).
 */
async function measuredOn(target: { server: TestServer; proxy: TcpProxy }, caller: Caller, method: string, path: string, body?: unknown, host?: string) {
  const from = target.proxy.roundTrips.length;
  const response = await target.server.api.request(method, path, { token: tokens[caller], body, host });
  const during = target.proxy.roundTrips.slice(from);
  const start = during.findIndex((trip) => trip.sent.includes('gatehouse_open_request'));
  expect(start).toBeGreaterThanOrEqual(0);
  const own = during.slice(start).filter((trip) => trip.connection === during[start]!.connection);
  const ends = (trip: { sent: string }) => /(COMMIT|ROLLBACK)\0/.test(trip.sent);
  let end = own.findIndex(ends);
  // A read that sent the wrong statements ahead reads again in a transaction of its own, on the same connection.
  while (own[end + 1]?.sent.includes(REOPENING)) end += 1 + own.slice(end + 1).findIndex(ends);
  return { response, roundTrips: end + 1, text: JSON.stringify(response.body), sent: own.slice(0, end + 1).map((trip) => trip.sent) };
}

const measured = (caller: Caller, method: string, path: string, body?: unknown, host?: string) => measuredOn({ server, proxy }, caller, method, path, body, host);

describe('a read takes one round trip', () => {
  it.each([
    ['show', () => `/api/acme/posts/${roadmap}`],
    ['show with fields', () => `/api/acme/posts/${roadmap}?fields[posts]=title`],
    ['index, counted exactly', () => '/api/acme/posts?filter[status]=published&sort=-title'],
    ['index, page 2', () => '/api/acme/posts?per_page=1&page=2'],
    ['trashed', () => '/api/acme/posts/trashed'],
    ['computed', () => '/api/acme/posts/computed'],
    ['user-role', () => '/api/acme/user-role'],
  ])('%s', async (_name, path) => {
    const { response, roundTrips } = await measured('owner', 'GET', path());
    expect(response.status).toBe(200);
    expect(roundTrips).toBe(1);
  });

  it.each([
    ['the route group in the data path', '/api/tenant/acme/posts', undefined],
    ['subdomain tenancy', '/api/posts', ACME_HOST],
  ])('in every shape of data base: %s', async (_shape, base, host) => {
    const caller = host ? 'portal' : 'owner';
    for (const path of [base, `${base}/${roadmap}`]) {
      const { response, roundTrips } = await measured(caller, 'GET', path, undefined, host);
      expect(response.status).toBe(200);
      expect(roundTrips).toBe(1);
    }
  });

  it('also outside tenancy, where the permissions are read with the opening', async () => {
    const { response, roundTrips } = await measured('admin', 'GET', '/api/admin/user-role');
    expect(response.status).toBe(200);
    expect(response.body.permissions).toEqual(['*']);
    expect(roundTrips).toBe(1);
  });

  it('answers every count mode of an index in one', async () => {
    for (const count of ['exact', 'planned', 'estimated', 'none']) {
      const from = proxy.roundTrips.length;
      const response = await server.api.get('/api/acme/posts', { token: tokens.owner, headers: { Prefer: `count=${count}` } });
      expect(response.status).toBe(200);
      expect(response.headers['preference-applied']).toBe(`count=${count}`);
      expect(proxy.roundTrips.slice(from).filter((trip) => trip.sent.includes('gatehouse_open_request'))).toHaveLength(1);
    }
  });

  it.each([
    ['show with an include', () => `/api/acme/posts/${roadmap}?include=comments`],
    ['index with an include', () => '/api/acme/posts?include=author'],
    ['two includes', () => `/api/acme/posts/${roadmap}?include=author,comments`],
    ['index with an include of many', () => '/api/acme/posts?include=comments'],
    ['trashed with an include', () => '/api/acme/posts/trashed?include=comments'],
    ['an include two hops deep', () => '/api/acme/comments?include=post.comments'],
  ])('reads %s in one, its hops reading their parents as a subquery', async (_name, path) => {
    const { response, roundTrips } = await measured('owner', 'GET', path());
    expect(response.status).toBe(200);
    expect(roundTrips).toBe(1);
  });

  it('reads an audit trail in one, its trail sent ahead for the fields its reader could read the last time', async () => {
    for (let round = 0; round < 2; round += 1) {
      const { response, roundTrips } = await measured('owner', 'GET', `/api/acme/posts/${roadmap}/audit`);
      expect(response.status).toBe(200);
      expect(roundTrips).toBe(1);
    }
  });
});

// The protocol's messages as the proxy saw them go out (Latin-1): an Execute of the unnamed portal
// for all rows, and a Sync, which PostgreSQL answers with a ReadyForQuery of its own.
const EXECUTE = 'E\0\0\0\u0009\0\0\0\0\0';
const SYNC = 'S\0\0\0\u0004';
const count = (text: string, message: string) => text.split(message).length - 1;

// The opening, a prepared statement, keeps a Sync of its own: the statement_timeout it sets holds
// for the statements after it. The read's statements then share one.
describe("a read's statements go out with one Sync", () => {
  it.each([
    ['show with two includes', () => `/api/acme/posts/${roadmap}?include=author,comments`],
    ['index, counted exactly', () => '/api/acme/posts?filter[status]=published&sort=-title'],
  ])('%s', async (_name, path) => {
    const from = proxy.roundTrips.length;
    const response = await server.api.get(path(), { token: tokens.owner, headers: { Prefer: 'count=exact' } });
    expect(response.status).toBe(200);
    const [read] = proxy.roundTrips.slice(from).filter((trip) => trip.sent.includes('gatehouse_open_request'));
    expect(count(read!.sent, EXECUTE)).toBeGreaterThanOrEqual(1 + 2);
    expect(count(read!.sent, SYNC)).toBe(1 + 1);
  });
});

describe('records whose JSON PostgreSQL writes (`recordJson: \'postgres\'`)', () => {
  // A server and a proxy of their own, so that nothing of theirs is counted in the other tests' round trips.
  let json: { server: TestServer; proxy: TcpProxy };

  beforeAll(async () => {
    const ownProxy = await startTcpProxy(Number(new URL(inject('clusterUrl')).port));
    json = { proxy: ownProxy, server: await startDataServer({ databasePort: ownProxy.port, testDatabase: server.database, recordJson: 'postgres' }) };
  });

  afterAll(async () => {
    await json.server?.server.close();
    await json.proxy?.stop();
  });

  it('are read in one round trip with one Sync, also when the guess read ahead is wider than the caller reads', async () => {
    // The viewer's first read guesses every attribute; it may not read internal_notes, so each record is cut in Node.
    for (const caller of ['viewer', 'viewer', 'owner'] as const) {
      const { response, roundTrips, sent } = await measuredOn(json, caller, 'GET', '/api/acme/posts?per_page=2');
      expect(response.status).toBe(200);
      expect(roundTrips).toBe(1);
      expect(count(sent[0]!, SYNC)).toBe(1 + 1);
      expect('internal_notes' in response.body.data[0]).toBe(caller === 'owner');
    }
  });

  it('takes a second round trip for a reader who reads more fields than its guess', async () => {
    const path = '/api/acme/posts?per_page=2';
    expect((await measuredOn(json, 'viewer', 'GET', path)).response.status).toBe(200);
    const grant = (granted: string[]) => server.sql("UPDATE user_roles SET granted_permissions = $1 WHERE user_id = (SELECT id FROM users WHERE email = 'viewer@acme.test') AND route_group = 'tenant'", [granted]);
    // posts.update lets the viewer read the internal notes, which its last read did not.
    await grant(['comments.store', 'posts.update']);
    try {
      const { response, roundTrips } = await measuredOn(json, 'viewer', 'GET', path);
      expect(response.status).toBe(200);
      expect(response.body.data.map((post: Record<string, unknown>) => 'internal_notes' in post)).toEqual([true, true]);
      expect(roundTrips).toBe(2);
    } finally {
      await grant(['comments.store']);
    }
  });
});

describe('a statement failing in the middle of a read', () => {
  it('answers as any failed read did, and leaves every connection clean, its statements ready again', async () => {
    const path = `/api/acme/posts/${roadmap}?include=comments,author`;
    // The include of comments (the second of three statements) fails for want of a privilege.
    await server.sql('REVOKE SELECT ON comments FROM gatehouse_app');
    let failed;
    try {
      failed = await measured('owner', 'GET', path);
    } finally {
      await server.sql('GRANT SELECT ON comments TO gatehouse_app');
    }
    expect(failed.response.status).toBe(500);
    expect(failed.response.body).toEqual({ message: 'Server Error' });
    expect(failed.roundTrips).toBe(1);
    const [read] = proxy.roundTrips.filter((trip) => trip.sent.includes('gatehouse_open_request')).slice(-1);
    expect([count(read!.sent, EXECUTE), count(read!.sent, SYNC)]).toEqual([1 + 3, 1 + 1]);
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all([path, path, `/api/acme/posts/${roadmap}`].map((each) => server.api.get(each, { token: tokens.owner })));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(answers[0]!.body.comments.map((comment: { body: string }) => comment.body)).toContain('Exciting.');
      expect(answers[1]!.body.author.name).toBe('Olivia Owner');
    }
  });
});

describe('POST {t}/authorize', () => {
  it('answers every check in the caller’s one tenant transaction', async () => {
    const [comment] = await server.sql<{ id: number }>("SELECT id FROM comments WHERE body = 'Exciting.'");
    const checks = [
      { model: 'posts', action: 'show', id: roadmap, include: ['comments'] },
      { model: 'posts', action: 'update', id: roadmap, fields: { write: ['title'] } },
      { model: 'posts', action: 'restore', id: welcome },
      { model: 'comments', action: 'destroy', id: comment!.id },
      { model: 'posts', action: 'store' },
    ];
    const from = proxy.roundTrips.length;
    const { response } = await measured('viewer', 'POST', '/api/acme/authorize', { checks });
    expect(response.body.results.map((result: { allowed: boolean }) => result.allowed)).toEqual([true, false, false, false, false]);
    const during = proxy.roundTrips.slice(from);
    // One opening, on one connection, ended once: no check opened a transaction of its own.
    expect(during.filter((trip) => trip.sent.includes('gatehouse_open_request'))).toHaveLength(1);
    expect(during.filter((trip) => trip.sent.includes(REOPENING) && !trip.sent.includes('gatehouse_open_request'))).toEqual([]);
    const { connection } = during.find((trip) => trip.sent.includes('gatehouse_open_request'))!;
    // The pool's other connections carry background work only (the mail worker polls each second,
    // a prepared statement sent by its name: `gatehouse_3`). A request's work there would need a
    // transaction and its context (BEGIN, the opening, `gatehouse.` settings) or name its tables.
    expect(during.filter((trip) => trip.connection !== connection && /BEGIN|gatehouse_open_request|gatehouse\.|posts|comments/.test(trip.sent))).toEqual([]);
    expect(during.filter((trip) => trip.connection === connection && /(COMMIT|ROLLBACK)\0/.test(trip.sent))).toHaveLength(1);
  });
});

describe('include hops sent ahead read only what the caller could list', () => {
  const comment = async (postTitle: string, body: string, organization: string) => {
    // Written past the trigger that gives a comment its post's organization: a row no request could write.
    await server.sql(`BEGIN; SET LOCAL session_replication_role = replica;
      INSERT INTO comments (organization_id, post_id, body) SELECT o.id, p.id, '${body}' FROM organizations o, posts p WHERE o.slug = '${organization}' AND p.title = '${postTitle}';
      COMMIT`);
    const [row] = await server.sql<{ id: number }>('SELECT id FROM comments WHERE body = $1', [body]);
    return row!.id;
  };

  it('a trashed post: not included, as the post is not listed', async () => {
    const id = await comment('Welcome to Acme', 'On a trashed post.', 'acme');
    const { response, roundTrips, text } = await measured('owner', 'GET', `/api/acme/comments/${id}?include=post.comments`);
    expect(response.status).toBe(200);
    expect(response.body.post).toBeNull();
    expect(text).not.toContain('Welcome to Acme');
    expect(roundTrips).toBe(1);
  });

  it("another tenant's rows: neither its comment on this tenant's post nor this tenant's post under its comment", async () => {
    const id = await comment('Quarterly roadmap', 'Globex was here.', 'globex');
    const acme = await measured('owner', 'GET', `/api/acme/posts/${roadmap}?include=comments`);
    expect(acme.response.status).toBe(200);
    expect(acme.response.body.comments.length).toBeGreaterThan(0);
    expect(acme.text).not.toContain('Globex was here');
    expect(acme.roundTrips).toBe(1);
    const globex = await measured('globex', 'GET', `/api/globex/comments/${id}?include=post`);
    expect(globex.response.status).toBe(200);
    expect(globex.response.body.post).toBeNull();
    expect(globex.text).not.toContain('roadmap');
    expect(globex.roundTrips).toBe(1);
  });

  it('a hop whose model reads the caller in its record scope: planned on the id the slug named the last time', async () => {
    const path = `/api/acme/posts/${roadmap}?include=author,comments`;
    const right = await measured('owner', 'GET', path);
    expect(right.response.status).toBe(200);
    expect(right.response.body.author.name).toBe('Olivia Owner');
    expect(right.roundTrips).toBe(1);
    // The slug named another organization the last time (deleted, its slug reused): read again.
    const [globex] = await server.sql<{ id: number }>("SELECT id FROM organizations WHERE slug = 'globex'");
    organizationIds.set('acme', globex!.id);
    const wrong = await measured('owner', 'GET', path);
    expect(wrong.response.status).toBe(200);
    expect(wrong.text).toBe(right.text);
    expect(wrong.roundTrips).toBeGreaterThan(1);
    expect((await measured('owner', 'GET', path)).roundTrips).toBe(1);
  });

  it("a model that reads the caller in its record scope, an organization's members: only them", async () => {
    organizationIds.set('acme', (await server.sql<{ id: number }>("SELECT id FROM organizations WHERE slug = 'globex'"))[0]!.id);
    const wrong = await measured('owner', 'GET', '/api/acme/users?sort=name');
    const right = await measured('owner', 'GET', '/api/acme/users?sort=name');
    expect(right.roundTrips).toBe(1);
    expect(wrong.text).toBe(right.text);
    expect(right.text).not.toContain('Gus Owner');
    expect(right.response.body.data.map((user: { name: string }) => user.name)).toContain('Vera Viewer');
  });
});

describe('an audit trail sent ahead on a guess', () => {
  let post: number;
  let notesOnly: number;
  let owners: string;
  const trail = () => `/api/acme/posts/${post}/audit`;

  beforeAll(async () => {
    const created = await server.api.post('/api/acme/posts', { token: tokens.owner, body: { title: 'Audit guesses', body: 'Public part.', internal_notes: 'Due in Q3.' } });
    post = created.body.id as number;
    // A change of a field the viewer may not read, alone: the viewer's trail must not tell it happened.
    const changed = await server.api.request('PATCH', `/api/acme/posts/${post}`, { token: tokens.owner, body: { internal_notes: 'Moved to Q4, quietly.' } });
    expect(changed.status).toBe(200);
    const [entry] = await server.sql<{ id: number }>("SELECT max(id) AS id FROM audit_logs WHERE model = 'posts' AND record_id = $1", [String(post)]);
    notesOnly = Number(entry!.id);
    const { response, roundTrips, text } = await measured('owner', 'GET', trail());
    expect(roundTrips).toBe(1);
    expect(response.body.data.map((entry: { id: number }) => entry.id)).toContain(notesOnly);
    owners = text;
  });

  it("answers a viewer after an owner exactly, the first time in a second round trip, then in one", async () => {
    const first = await measured('viewer', 'GET', trail());
    expect(first.response.status).toBe(200);
    expect(first.roundTrips).toBe(2);
    expect(first.response.body.data.map((entry: { id: number }) => entry.id)).not.toContain(notesOnly);
    expect(first.text).not.toContain('internal_notes');
    expect(first.text).not.toContain('Q4');
    expect(Number(first.response.headers['x-total'])).toBe(JSON.parse(owners).data.length - 1);
    const again = await measured('viewer', 'GET', trail());
    expect(again.roundTrips).toBe(1);
    expect(again.text).toBe(first.text);
    expect(again.response.headers['x-total']).toBe(first.response.headers['x-total']);
  });

  it('answers a reader whose permissions changed since its guess as they are now', async () => {
    const viewers = (await measured('viewer', 'GET', trail())).text;
    const grant = (granted: string[]) =>
      server.sql(`UPDATE user_roles SET granted_permissions = $1 WHERE user_id = (SELECT id FROM users WHERE email = 'viewer@acme.test') AND route_group = 'tenant'`, [granted]);
    // posts.update lets the viewer read the internal notes: the guess (without them) is wrong.
    await grant(['comments.store', 'posts.update']);
    try {
      const widened = await measured('viewer', 'GET', trail());
      expect(widened.roundTrips).toBe(2);
      expect(widened.text).toBe(owners);
    } finally {
      await grant(['comments.store']);
    }
    // And back: the guess now holds the notes, which the viewer may no longer read.
    const narrowed = await measured('viewer', 'GET', trail());
    expect(narrowed.roundTrips).toBe(2);
    expect(narrowed.text).toBe(viewers);
    expect(narrowed.text).not.toContain('Q4');
  });
});

describe('a reader with record conditions', () => {
  // The contributor lists published posts and its own drafts (`posts.index:visible`): its statements carry that condition.
  const grant = (granted: string[]) =>
    server.sql(`UPDATE user_roles SET granted_permissions = $1 WHERE user_id = (SELECT id FROM users WHERE email = 'contributor@acme.test') AND route_group = 'tenant'`, [granted]);

  it.each([
    ['index', () => '/api/acme/posts'],
    ['show', () => `/api/acme/posts/${roadmap}`],
    ['computed', () => '/api/acme/posts/computed'],
    ['comments with their post', () => '/api/acme/comments?include=post'],
  ])('%s: the first time in a second round trip, planned on the conditions the opening found, then in one', async (_name, path) => {
    const first = await measured('contributor', 'GET', path());
    expect(first.response.status).toBe(200);
    expect(first.roundTrips).toBeLessThanOrEqual(2);
    const again = await measured('contributor', 'GET', path());
    expect(again.roundTrips).toBe(1);
    expect(again.text).toBe(first.text);
  });

  it('lists what its conditions reach now, after they changed since its guess, and back', async () => {
    const drafts = await server.sql<{ id: number }>(
      "SELECT p.id FROM posts p JOIN users u ON u.id = p.author_id JOIN organizations o ON o.id = p.organization_id WHERE o.slug = 'acme' AND p.status <> 'published' AND u.email <> 'contributor@acme.test' AND p.deleted_at IS NULL",
    );
    expect(drafts.length).toBeGreaterThan(0);
    const listed = (text: string) => (JSON.parse(text) as { data: { id: number }[] }).data.map(({ id }) => id);
    const conditioned = await measured('contributor', 'GET', '/api/acme/posts?per_page=100');
    expect(listed(conditioned.text)).not.toContain(drafts[0]!.id);
    // A plain posts.index reaches every post: the conditions sent ahead on the guess are not the caller's now.
    await grant(['posts.index']);
    try {
      const widened = await measured('contributor', 'GET', '/api/acme/posts?per_page=100');
      expect(widened.roundTrips).toBe(2);
      expect(listed(widened.text)).toEqual(expect.arrayContaining(drafts.map(({ id }) => id)));
    } finally {
      await grant([]);
    }
    const narrowed = await measured('contributor', 'GET', '/api/acme/posts?per_page=100');
    expect(narrowed.roundTrips).toBe(2);
    expect(narrowed.text).toBe(conditioned.text);
  });
});

describe('what a read sends ahead, a refusal never answers', () => {
  it('a viewer without the permission to see the trash: the same 403, no trashed post', async () => {
    const { response, roundTrips, text } = await measured('viewer', 'GET', '/api/acme/posts/trashed');
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: 'This action is unauthorized.', reason: { gate: 'policy', permission: 'posts.trashed' } });
    expect(text).not.toContain('Welcome to Acme');
    expect(roundTrips).toBe(1);
  });

  it('a viewer without comments.show: the same 403, no comment', async () => {
    const [comment] = await server.sql<{ id: number }>("SELECT id FROM comments WHERE body = 'Exciting.'");
    const { response, text } = await measured('viewer', 'GET', `/api/acme/comments/${comment!.id}`);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: 'This action is unauthorized.', reason: { gate: 'policy', permission: 'comments.show' } });
    expect(text).not.toContain('Exciting');
  });

  it("another tenant's record: the same 404, read under the caller's own tenant", async () => {
    const { response, text } = await measured('globex', 'GET', `/api/globex/posts/${roadmap}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'Resource not found' });
    expect(text).not.toContain('roadmap');
  });

  it('an organization the caller is no member of: the same 404 before any record', async () => {
    const { response, text } = await measured('globex', 'GET', `/api/acme/posts/${roadmap}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'Organization not found' });
    expect(text).not.toContain('roadmap');
  });

  it('a revoked session: the same 401', async () => {
    const { response, text } = await measured('revoked', 'GET', `/api/acme/posts/${roadmap}`);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: 'Unauthenticated.' });
    expect(text).not.toContain('roadmap');
  });

  it('hidden fields stay hidden from a viewer', async () => {
    const { response, roundTrips, text } = await measured('viewer', 'GET', `/api/acme/posts/${roadmap}`);
    expect(response.status).toBe(200);
    expect(response.body.title).toBe('Quarterly roadmap');
    expect(response.body).not.toHaveProperty('internal_notes');
    expect(text).not.toContain('Q3 dates');
    expect(roundTrips).toBe(1);
  });

  it('a refused include: the same 403, not the record read ahead', async () => {
    const { response, text } = await measured('viewer', 'GET', `/api/acme/posts/${roadmap}?include=author`);
    expect(response.status).toBe(403);
    expect(response.body.message).toBe('You do not have permission to include author.');
    expect(text).not.toContain('roadmap');
  });

  it('a query string the handler refuses: refused after the checks, in their order', async () => {
    const refused = await measured('revoked', 'GET', '/api/acme/posts?sort=nope');
    expect(refused.response.status).toBe(401);
    const invalid = await measured('owner', 'GET', '/api/acme/posts?sort=nope');
    expect(invalid.response.status).toBe(400);
  });

  it('leaves every connection clean for the next request', async () => {
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all([
        server.api.get('/api/acme/posts/trashed', { token: tokens.viewer }),
        server.api.get(`/api/globex/posts/${roadmap}`, { token: tokens.globex }),
        server.api.get(`/api/acme/posts/${roadmap}`, { token: tokens.owner }),
        server.api.get('/api/acme/posts/trashed', { token: tokens.owner }),
        server.api.get(`/api/acme/posts/${roadmap}`, { token: tokens.revoked }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([403, 404, 200, 200, 401]);
      expect(answers[2]!.body.internal_notes).toBe('Do not share the Q3 dates yet.');
      expect(answers[3]!.body.data.map((post: { title: string }) => post.title)).toEqual(['Welcome to Acme']);
    }
  });
});

// A write reads what its gate needs with the opening, then sends the write with its audit row
// (one statement) and COMMIT together (server/data/write-actions.ts).
describe('a write takes at most two round trips', () => {
  const auditOf = (id: number) => server.sql<{ action: string }>("SELECT action FROM audit_logs WHERE model = 'posts' AND record_id = $1 ORDER BY id", [String(id)]);

  it('store, update, destroy, restore and force delete, each with its audit row', async () => {
    const created = await measured('owner', 'POST', '/api/acme/posts', { title: 'Two trips' });
    expect([created.response.status, created.roundTrips]).toEqual([201, 2]);
    const id: number = created.response.body.id;
    const steps: [string, string, unknown, number][] = [
      ['PUT', `/api/acme/posts/${id}`, { title: 'Two trips, put' }, 200],
      ['PATCH', `/api/acme/posts/${id}`, { status: 'published' }, 200],
      ['DELETE', `/api/acme/posts/${id}`, undefined, 204],
      ['POST', `/api/acme/posts/${id}/restore`, undefined, 200],
      ['DELETE', `/api/acme/posts/${id}/force-delete`, undefined, 204],
    ];
    for (const [method, path, body, status] of steps) {
      const { response, roundTrips } = await measured('owner', method, path, body);
      expect([method, path, response.status, roundTrips]).toEqual([method, path, status, 2]);
    }
    expect((await auditOf(id)).map((entry) => entry.action)).toEqual(['created', 'updated', 'updated', 'deleted', 'restored', 'force_deleted']);
  });

  it('a child names its owner parent: read with the opening; a parent outside the tenant is a 422', async () => {
    const stored = await measured('owner', 'POST', '/api/acme/comments', { post_id: roadmap, body: 'Two trips as well.' });
    expect([stored.response.status, stored.roundTrips]).toEqual([201, 2]);
    const [foreign] = await server.sql<{ id: number }>("SELECT p.id FROM posts p JOIN organizations o ON o.id = p.organization_id WHERE o.slug = 'globex' LIMIT 1");
    const refused = await measured('owner', 'POST', '/api/acme/comments', { post_id: foreign!.id, body: 'Hung on globex.' });
    expect(refused.response.status).toBe(422);
    expect(refused.response.body.errors).toEqual({ post_id: ['The selected post id is invalid.'] });
    expect(await server.sql("SELECT 1 FROM comments WHERE body = 'Hung on globex.'")).toEqual([]);
  });

  it('a refused write: the same 403, nothing written, nothing logged', async () => {
    const before = await auditOf(roadmap);
    const { response, roundTrips } = await measured('viewer', 'DELETE', `/api/acme/posts/${roadmap}`);
    expect(response.status).toBe(403);
    expect(roundTrips).toBeLessThanOrEqual(2);
    expect(await server.sql('SELECT deleted_at FROM posts WHERE id = $1', [roadmap])).toEqual([{ deleted_at: null }]);
    expect(await auditOf(roadmap)).toEqual(before);
  });

  it("a write the table's constraints refuse: a 422 naming the field, nothing committed, every connection clean", async () => {
    await server.sql("ALTER TABLE posts ADD CONSTRAINT posts_title_not_reserved CHECK (title <> 'Reserved')");
    await server.sql('ALTER TABLE posts ADD CONSTRAINT posts_title_unique UNIQUE (organization_id, title)');
    await server.sql("ALTER TABLE posts ADD CONSTRAINT no_shouting CHECK (title <> 'SHOUT')");
    try {
      const checked = await measured('owner', 'POST', '/api/acme/posts', { title: 'Reserved' });
      expect(checked.response.status).toBe(422);
      expect(checked.response.body).toEqual({ message: 'The given data was invalid.', errors: { title: ['The title field is invalid.'] } });
      const unnamed = await measured('owner', 'POST', '/api/acme/posts', { title: 'SHOUT' });
      expect(unnamed.response.body).toEqual({ message: 'The given data was invalid.', errors: { no_shouting: ['The given data violates the rule no_shouting.'] } });
      const taken = await measured('owner', 'PATCH', `/api/acme/posts/${roadmap}`, { title: 'Welcome to Acme' });
      expect(taken.response.status).toBe(422);
      expect(taken.response.body.errors).toEqual({ title: ['The title has already been taken.'] });
      expect(taken.text).not.toContain('Key (');
      expect(await server.sql("SELECT title FROM posts WHERE title = 'Reserved' OR id = $1", [roadmap])).toEqual([{ title: 'Quarterly roadmap' }]);
      const answers = await Promise.all([
        server.api.post('/api/acme/posts', { token: tokens.owner, body: { title: 'Reserved' } }),
        server.api.get(`/api/acme/posts/${roadmap}`, { token: tokens.owner }),
        server.api.request('PATCH', `/api/acme/posts/${roadmap}`, { token: tokens.owner, body: { title: 'Welcome to Acme' } }),
        server.api.get('/api/acme/posts/trashed', { token: tokens.owner }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([422, 200, 422, 200]);
      expect(answers[1]!.body.title).toBe('Quarterly roadmap');
    } finally {
      await server.sql('ALTER TABLE posts DROP CONSTRAINT posts_title_not_reserved, DROP CONSTRAINT posts_title_unique, DROP CONSTRAINT no_shouting');
    }
  });
});
