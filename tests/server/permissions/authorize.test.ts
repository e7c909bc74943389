import { STANDARD_ACTIONS } from '@gatehouse/engine/wire';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../../policies/seed.js';
import { ACME_HOST, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// Issue 22, item 1: POST {t}/authorize answers each check as its real request would be answered.

let server: TestServer;
const tokens = new Map<string, string>();
/** The property test's own server: its real requests delete and restore records the other tests name. */
let sampled: TestServer;
const sampledTokens = new Map<string, string>();
const MEMBERS = DEMO_USERS.filter((user) => user.organization !== null);
const MODELS = ['posts', 'comments', 'users', 'organizations', 'roles', 'invoices'];
const INCLUDES = [[], ['author'], ['comments'], ['post'], ['comments.author'], ['nope']];

beforeAll(async () => {
  [server, sampled] = await Promise.all([startDataServer(), startDataServer()]);
  for (const user of MEMBERS) {
    tokens.set(user.email, await server.login(user.email));
    sampledTokens.set(user.email, await sampled.login(user.email));
  }
});

afterAll(() => Promise.all([server.close(), sampled.close()]));

const authorizeOn = (target: () => TestServer, tokenOf: Map<string, string>) => (email: string, organization: string, checks: unknown) =>
  target().api.post(`/api/${organization}/authorize`, { token: tokenOf.get(email)!, body: { checks } });
const authorize = authorizeOn(() => server, tokens);
const authorizeSampled = authorizeOn(() => sampled, sampledTokens);

/** The data request a check stands for; store and update send `{}`, which never writes. */
function realRequest(email: string, organization: string, check: { model: string; action: string; id: number; include: string[] }) {
  const base = `/api/${organization}/${check.model}`;
  const query = check.include.length > 0 ? `?include=${check.include.join(',')}` : '';
  const options = { token: sampledTokens.get(email)! };
  switch (check.action) {
    case 'index':
      return sampled.api.get(`${base}${query}`, options);
    case 'trashed':
      return sampled.api.get(`${base}/trashed${query}`, options);
    case 'show':
      return sampled.api.get(`${base}/${check.id}${query}`, options);
    case 'store':
      return sampled.api.post(base, { ...options, body: {} });
    case 'update':
      return sampled.api.request('PATCH', `${base}/${check.id}`, { ...options, body: {} });
    case 'destroy':
      return sampled.api.delete(`${base}/${check.id}`, options);
    case 'restore':
      return sampled.api.post(`${base}/${check.id}/restore`, options);
    default:
      return sampled.api.delete(`${base}/${check.id}/force-delete`, options);
  }
}

/** Past every gate: answered, or refused only by the body's validation. */
const passedGates = (status: number) => status < 300 || status === 422;

describe('POST {t}/authorize', () => {
  it('agrees with the real request for every demo member x model x action x sampled records', async () => {
    const ids = (await sampled.sql<{ id: number }>('SELECT id FROM posts UNION SELECT id FROM comments UNION SELECT id FROM users')).map((row) => row.id);
    const listing = new Set(['index', 'trashed', 'show']);
    // GET {t}/roles and GET {t}/organizations are tenant routes, not these models' data index: answered as they are served.
    const combinations = MEMBERS.flatMap((user) => MODELS.flatMap((model) => STANDARD_ACTIONS.map((action) => ({ user, model, action }))));
    const samples = fc.sample(fc.record({ id: fc.constantFrom(...ids, 999_999), include: fc.constantFrom(...INCLUDES) }), { numRuns: 2 * combinations.length, seed: 22 });
    // One after the other, each check and its request together: a real destroy changes what the next pair sees.
    for (const [index, { user, model, action }] of [...combinations, ...combinations].entries()) {
      const { id, include } = samples[index]!;
      const check = { model, action, id, include: listing.has(action) ? include : [] };
      const organization = user.organization!;
      const answer = await authorizeSampled(user.email, organization, [check]);
      expect(answer.status).toBe(200);
      const real = await realRequest(user.email, organization, check);
      const [result] = answer.body.results;
      const asked = { user: user.email, ...check };
      expect({ asked, allowed: result.allowed, status: real.status }).toEqual({ asked, allowed: passedGates(real.status), status: real.status });
      if (!result.allowed) expect({ asked, message: result.message }).toEqual({ asked, message: real.body.message });
      // A refusal's reason is the 403's, to the record conditions it names.
      if (real.status === 403) expect({ asked, reason: result.reason }).toEqual({ asked, reason: real.body.reason });
    }
  });

  it('names the override that refused a held permission, the fields and the include hop', async () => {
    await server.sql("UPDATE user_roles SET granted_permissions = array_append(granted_permissions, 'posts.store') WHERE user_id = (SELECT id FROM users WHERE email = 'viewer@acme.test')");
    const [post] = await server.sql<{ id: number }>("SELECT id FROM posts WHERE title = 'Office move'");
    const answer = await authorize('viewer@acme.test', 'acme', [
      { model: 'posts', action: 'store' },
      { model: 'posts', action: 'destroy', id: post!.id },
      { model: 'posts', action: 'show', id: post!.id, fields: { read: ['title', 'internal_notes'] } },
      { model: 'posts', action: 'index', include: ['author'] },
      { model: 'posts', action: 'show', id: post!.id, fields: { read: ['title'] } },
    ]);
    expect(answer.body.results).toEqual([
      { allowed: false, message: 'This action is unauthorized.', reason: { gate: 'policy', permission: 'posts.store', policy: 'PostPolicy.create' } },
      { allowed: false, message: 'This action is unauthorized.', reason: { gate: 'policy', permission: 'posts.destroy' } },
      { allowed: true, hidden_fields: ['internal_notes'] },
      { allowed: false, message: 'You do not have permission to include author.', reason: { gate: 'include', include: 'author', permission: 'users.index' } },
      { allowed: true },
    ]);
    // The read that check stands for: 200, the hidden field dropped.
    const read = await server.api.get(`/api/acme/posts/${post!.id}?fields=title,internal_notes`, { token: tokens.get('viewer@acme.test')! });
    expect(read).toMatchObject({ status: 200, body: { title: 'Office move' } });
    expect(read.body).not.toHaveProperty('internal_notes');
    const [comment] = await server.sql<{ id: number }>("SELECT id FROM comments WHERE body = 'Glad to be here.'");
    const editor = await authorize('editor@acme.test', 'acme', [{ model: 'comments', action: 'update', id: comment!.id, fields: { write: ['body', 'post_id'] } }]);
    expect(editor.body.results[0].reason).toEqual({ gate: 'fields', fields: ['post_id'], policy: 'CommentPolicy.permittedAttributesForUpdate' });
  });

  it('refuses an unknown model or action in its own result, another tenant’s record as missing', async () => {
    const [foreign] = await server.sql<{ id: number }>("SELECT id FROM posts WHERE title = 'Globex secrets'");
    const answer = await authorize('owner@acme.test', 'acme', [
      { model: 'invoices', action: 'index' },
      { model: 'posts', action: 'publish' },
      { model: 'posts', action: 'show', id: foreign!.id },
      { model: 'posts', action: 'show' },
      { model: 'posts', action: 'index' },
    ]);
    expect(answer.body.results.map((result: { allowed: boolean; reason?: { gate: string } }) => [result.allowed, result.reason?.gate])).toEqual([
      [false, 'model'],
      [false, 'action'],
      [false, 'record'],
      [false, 'record'],
      [true, undefined],
    ]);
    expect(answer.body.results[2].message).toBe('Resource not found');
  });

  it('answers a write asked for includes as its request does', async () => {
    const [post] = await server.sql<{ id: number }>("SELECT id FROM posts WHERE title = 'Office move'");
    const checks = [
      { model: 'posts', action: 'store', include: ['author'] },
      { model: 'posts', action: 'update', id: post!.id, include: ['author'] },
      { model: 'posts', action: 'destroy', id: post!.id, include: ['author'] },
    ];
    const answer = await authorize('owner@acme.test', 'acme', checks);
    expect(answer.body.results).toEqual([{ allowed: true }, { allowed: true }, { allowed: false, message: 'Unknown query parameter: include.', reason: { gate: 'request' } }]);
    const refusal = { allowed: false, message: 'You do not have permission to include author.', reason: { gate: 'include', include: 'author', permission: 'users.index' } };
    expect((await authorize('contributor@acme.test', 'acme', checks.slice(0, 1))).body.results).toEqual([refusal]);
    const real = await server.api.post('/api/acme/posts?include=author', { token: tokens.get('contributor@acme.test')!, body: { title: 'Asked to include' } });
    expect(real).toMatchObject({ status: 403, body: { message: refusal.message } });
  });

  it('answers on every tenant base: the organization in the path, after the group, on its host', async () => {
    await server.sql(`INSERT INTO user_roles (user_id, organization_id, role_id, route_group)
      SELECT u.id, o.id, r.id, 'portal' FROM users u, organizations o, roles r
      WHERE u.email = 'editor@acme.test' AND o.slug = 'acme' AND r.slug = 'editor'`);
    const portal = await server.login('editor@acme.test', { host: ACME_HOST });
    const [foreign] = await server.sql<{ id: number }>("SELECT id FROM posts WHERE title = 'Globex secrets'");
    const checks = [
      { model: 'posts', action: 'store' },
      { model: 'posts', action: 'forceDelete', id: foreign!.id },
      { model: 'posts', action: 'index', include: ['author'] },
    ];
    const expected = { status: 200, body: { results: [{ allowed: true }, { allowed: false, message: 'Resource not found', reason: { gate: 'record' } }, { allowed: true }] } };
    expect(await authorize('editor@acme.test', 'acme', checks)).toMatchObject(expected);
    expect(await server.api.post('/api/tenant/acme/authorize', { token: tokens.get('editor@acme.test')!, body: { checks } })).toMatchObject(expected);
    expect(await server.api.post('/api/acme/authorize', { token: portal, host: ACME_HOST, body: { checks } })).toMatchObject(expected);
    expect((await server.api.post('/api/globex/authorize', { token: portal, host: ACME_HOST, body: { checks } })).status).toBe(404);
  });

  it('answers a malformed body or more than 100 checks with 422, and a stranger with 401', async () => {
    for (const checks of [undefined, 'posts', [{ model: 'posts' }], [{ model: 'posts', action: 'index', extra: 1 }], Array.from({ length: 101 }, () => ({ model: 'posts', action: 'index' }))]) {
      const answer = await authorize('owner@acme.test', 'acme', checks);
      expect(answer.status).toBe(422);
      expect(answer.body.errors).toBeDefined();
    }
    expect((await server.api.post('/api/acme/authorize', { body: { checks: [] } })).status).toBe(401);
    expect((await authorize('owner@globex.test', 'acme', [])).status).toBe(404);
  });
});

describe('GET {t}/user-role', () => {
  it('answers the policies’ abilities, 304 while unchanged and a new ETag after a permission change', async () => {
    const token = await server.login('viewer@acme.test');
    const first = await server.api.get('/api/acme/user-role', { token });
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(first.body.abilities.posts).toEqual({ index: true, store: false, trashed: false });
    // GET {t}/roles and GET {t}/organizations serve every member, and the abilities say so.
    expect([first.body.abilities.roles.index, first.body.abilities.organizations.index]).toEqual([true, true]);
    const etag = first.headers.etag!;
    expect((await server.api.get('/api/acme/user-role', { token, headers: { 'if-none-match': etag } })).status).toBe(304);
    // fetch adds `Cache-Control: no-cache` to a request that carries its own If-None-Match.
    expect((await server.api.get('/api/acme/user-role', { token, headers: { 'if-none-match': etag, 'cache-control': 'no-cache' } })).status).toBe(304);
    expect((await server.api.get('/api/acme/user-role', { token, headers: { 'if-none-match': `W/${etag}, "other"` } })).status).toBe(304);
    expect((await server.api.get('/api/acme/user-role', { token, headers: { 'if-none-match': '"other"', 'cache-control': 'no-cache' } })).status).toBe(200);

    await server.sql("UPDATE user_roles SET granted_permissions = array_append(granted_permissions, 'posts.trashed') WHERE user_id = (SELECT id FROM users WHERE email = 'viewer@acme.test')");
    const changed = await server.api.get('/api/acme/user-role', { token, headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body.abilities.posts.trashed).toBe(true);
    expect((await server.api.get('/api/acme/posts/trashed', { token })).status).toBe(200);
  });
});
