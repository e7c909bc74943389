import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/http-client.js';
import { idOf, postId, startDataServer } from '../support/data-server.js';
import { createAccounts, createTenant, type Membership } from '../support/tenant-fixture.js';
import type { TestServer } from '../support/test-server.js';

// Both gates over HTTP with the demo users of DESIGN.md 6: which actions, fields and includes
// each role gets, and which check answers first when several would fail.

type Who = 'owner' | 'editor' | 'viewer';

interface Fixture {
  post: number;
  trashed: number;
  comment: number;
  otherPost: number;
}

let server: TestServer;
const tokens = {} as Record<Who, string>;
const userIds = {} as Record<Who, number>;
let acmeId: number;
let ownerRoleId: number;
let globexPost: number;

beforeAll(async () => {
  server = await startDataServer();
  for (const who of ['owner', 'editor', 'viewer'] as const) {
    tokens[who] = await server.login(`${who}@acme.test`);
    userIds[who] = await idOf(server, 'users', 'email', `${who}@acme.test`);
  }
  acmeId = await idOf(server, 'organizations', 'slug', 'acme');
  ownerRoleId = await idOf(server, 'roles', 'slug', 'owner');
  globexPost = await postId(server, 'Globex secrets');
});

afterAll(() => server.close());

/** Fresh acme rows for one case, written as the database owner. */
async function fixture(): Promise<Fixture> {
  const insertPost = (deleted: boolean) =>
    server.sql(
      `INSERT INTO posts (organization_id, title, body, status, internal_notes, author_id, deleted_at)
       VALUES ($1, 'Fixture', 'Fixture body', 'draft', 'Fixture note', $2, ${deleted ? 'now()' : 'NULL'}) RETURNING id`,
      [acmeId, userIds.owner],
    );
  const [[post], [trashed], [otherPost]] = await Promise.all([insertPost(false), insertPost(true), insertPost(false)]);
  const [comment] = await server.sql('INSERT INTO comments (post_id, body, author_id) VALUES ($1, $2, $3) RETURNING id', [post.id, 'Fixture comment', userIds.owner]);
  return { post: post.id, trashed: trashed.id, comment: comment.id, otherPost: otherPost.id };
}

/** Every row a case could have touched, to show that a refused request changed nothing. */
async function snapshot(fixture: Fixture): Promise<unknown> {
  return {
    posts: await server.sql('SELECT * FROM posts WHERE organization_id = $1 ORDER BY id', [acmeId]),
    comments: await server.sql('SELECT * FROM comments WHERE organization_id = $1 ORDER BY id', [acmeId]),
    organization: await server.sql('SELECT * FROM organizations WHERE id = $1', [acmeId]),
    users: await server.sql('SELECT id, name FROM users ORDER BY id'),
    audit: await server.sql('SELECT count(*) FROM audit_logs WHERE record_id IN ($1, $2)', [String(fixture.post), String(fixture.trashed)]),
  };
}

type Path = string | ((fixture: Fixture) => string);
type Body = unknown | ((fixture: Fixture) => unknown);

function call(who: Who | null, method: string, path: Path, fixture: Fixture, body?: Body): Promise<ApiResponse> {
  const url = `/api/acme${typeof path === 'function' ? path(fixture) : path}`;
  const payload = typeof body === 'function' ? body(fixture) : body;
  return server.api.request(method, url, { token: who ? tokens[who] : undefined, body: payload });
}

const UNAUTHORIZED = { message: 'This action is unauthorized.' };
const lacking = (permission: string, policy?: string) => ({ ...UNAUTHORIZED, reason: { gate: 'policy', permission, ...(policy ? { policy } : {}) } });

describe('actions: each role allowed and denied (DESIGN.md 6)', () => {
  // [action, method, path below /api/acme, body, expected status for owner, editor, viewer]
  const ACTIONS: [string, string, Path, Body, [number, number, number]][] = [
    ['index posts', 'GET', '/posts', undefined, [200, 200, 200]],
    ['show a post', 'GET', (f) => `/posts/${f.post}`, undefined, [200, 200, 200]],
    ['store a post', 'POST', '/posts', { title: 'New' }, [201, 201, 403]],
    ['update a post', 'PUT', (f) => `/posts/${f.post}`, { title: 'Renamed' }, [200, 200, 403]],
    ['patch a post', 'PATCH', (f) => `/posts/${f.post}`, { status: 'published' }, [200, 200, 403]],
    ['destroy a post', 'DELETE', (f) => `/posts/${f.post}`, undefined, [204, 204, 403]],
    ['list trashed posts', 'GET', '/posts/trashed', undefined, [200, 200, 403]],
    ['restore a post', 'POST', (f) => `/posts/${f.trashed}/restore`, undefined, [200, 200, 403]],
    ['force delete a post (editor: denied per user)', 'DELETE', (f) => `/posts/${f.trashed}/force-delete`, undefined, [204, 403, 403]],
    ['read a post’s audit trail', 'GET', (f) => `/posts/${f.post}/audit`, undefined, [200, 200, 200]],
    ['compute post aggregates', 'GET', '/posts/computed', undefined, [200, 200, 200]],
    ['index comments', 'GET', '/comments', undefined, [200, 200, 200]],
    ['show a comment', 'GET', (f) => `/comments/${f.comment}`, undefined, [200, 200, 403]],
    ['store a comment (viewer: granted per user)', 'POST', '/comments', (f: Fixture) => ({ post_id: f.post, body: 'Hi' }), [201, 201, 201]],
    ['update a comment', 'PUT', (f) => `/comments/${f.comment}`, { body: 'Edited' }, [200, 200, 403]],
    ['destroy a comment', 'DELETE', (f) => `/comments/${f.comment}`, undefined, [204, 204, 403]],
    ['index users', 'GET', '/users', undefined, [200, 200, 403]],
    ['show a user', 'GET', () => `/users/${userIds.editor}`, undefined, [200, 403, 403]],
    ['rename another user (nobody in a tenant: names are global)', 'PUT', () => `/users/${userIds.editor}`, { name: 'Eddie Editor' }, [403, 403, 403]],
    ['create a user (never through the data API)', 'POST', '/users', { name: 'Nobody' }, [403, 403, 403]],
    ['show the organization', 'GET', () => `/organizations/${acmeId}`, undefined, [200, 403, 403]],
    ['rename the organization', 'PUT', () => `/organizations/${acmeId}`, { name: 'Acme Corporation' }, [200, 403, 403]],
    ['delete the organization (never)', 'DELETE', () => `/organizations/${acmeId}`, undefined, [403, 403, 403]],
    ['show a role', 'GET', () => `/roles/${ownerRoleId}`, undefined, [200, 403, 403]],
    ['update a role (read-only)', 'PUT', () => `/roles/${ownerRoleId}`, {}, [403, 403, 403]],
  ];
  const WHO: Who[] = ['owner', 'editor', 'viewer'];
  const cases = ACTIONS.flatMap(([action, method, path, body, statuses]) =>
    WHO.map((who, index) => ({ action, who, method, path, body, status: statuses[index]! })),
  );

  it.each(cases)('$who: $action → $status', async ({ who, method, path, body, status }) => {
    const data = await fixture();
    const before = await snapshot(data);
    const response = await call(who, method, path, data, body);
    expect(response.status).toBe(status);
    if (status === 403) {
      expect(response.body).toMatchObject({ ...UNAUTHORIZED, reason: { gate: 'policy' } });
      expect(await snapshot(data)).toEqual(before);
    }
  });

  it('viewers create no posts even when a grant gives them posts.store', async () => {
    await server.sql(`UPDATE user_roles SET granted_permissions = granted_permissions || '{posts.store}' WHERE user_id = $1`, [userIds.viewer]);
    try {
      const response = await call('viewer', 'POST', '/posts', await fixture(), { title: 'Sneaky' });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(lacking('posts.store', 'PostPolicy.create'));
    } finally {
      await server.sql(`UPDATE user_roles SET granted_permissions = array_remove(granted_permissions, 'posts.store') WHERE user_id = $1`, [userIds.viewer]);
    }
  });
});

describe('fields: what each role may set and see', () => {
  const refused = (...fields: string[]) => ({ message: `You are not allowed to set the following field(s): ${fields.join(', ')}` });
  const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });

  // [case, who, method, path, body, status, what the answer contains]
  const WRITES: [string, Who, string, Path, Body, number, unknown][] = [
    ['an editor sets the editorial fields', 'editor', 'POST', '/posts', { title: 'T', body: 'B', status: 'published' }, 201, { title: 'T', body: 'B', status: 'published' }],
    ['an editor may not set internal notes', 'editor', 'POST', '/posts', { title: 'T', internal_notes: 'n' }, 403, refused('internal_notes')],
    ['an editor is told every refused field, in request order', 'editor', 'PUT', (f) => `/posts/${f.post}`, { internal_notes: 'n', title: 'ok', author_id: 1 }, 403, refused('internal_notes', 'author_id')],
    ['a * role sets internal notes', 'owner', 'POST', '/posts', { title: 'T', internal_notes: 'n' }, 201, { internal_notes: 'n' }],
    ['a * role naming an author is still the author', 'owner', 'POST', '/posts', { title: 'T', author_id: 1 }, 201, { author_id: 'owner' }],
    ['an editor may not name the organization', 'editor', 'POST', '/posts', { title: 'T', organization_id: 2 }, 403, refused('organization_id')],
    ['the author of a post is the caller', 'editor', 'POST', '/posts', { title: 'Mine' }, 201, { author_id: 'editor' }],
    ['the author of a comment is the caller', 'viewer', 'POST', '/comments', (f: Fixture) => ({ post_id: f.post, body: 'Hi' }), 201, { author_id: 'viewer' }],
    ['a comment body may not name its author', 'viewer', 'POST', '/comments', (f: Fixture) => ({ post_id: f.post, body: 'Hi', author_id: 1 }), 403, refused('author_id')],
    ['an editor may not move a comment to another post', 'editor', 'PUT', (f) => `/comments/${f.comment}`, (f: Fixture) => ({ post_id: f.otherPost }), 403, refused('post_id')],
    ['a * role moves a comment', 'owner', 'PUT', (f) => `/comments/${f.comment}`, (f: Fixture) => ({ post_id: f.otherPost }), 200, {}],
    ['the title is required', 'editor', 'POST', '/posts', { body: 'No title' }, 422, invalid({ title: ['The title field is required.'] })],
    ['the title cannot be blanked', 'editor', 'PATCH', (f) => `/posts/${f.post}`, { title: '  ' }, 422, invalid({ title: ['The title field is required.'] })],
    ['a comment needs a body', 'viewer', 'POST', '/comments', (f: Fixture) => ({ post_id: f.post }), 422, invalid({ body: ['The body field is required.'] })],
    ['a comment needs a post', 'viewer', 'POST', '/comments', { body: 'Orphan' }, 422, invalid({ post_id: ['The post id field is required.'] })],
    ['a comment hangs only on a post the caller can see', 'viewer', 'POST', '/comments', () => ({ post_id: globexPost, body: 'Hi' }), 422, invalid({ post_id: ['The selected post id is invalid.'] })],
    ['a status outside the list', 'editor', 'POST', '/posts', { title: 'T', status: 'secret' }, 422, invalid({ status: ['The status field must be one of: draft, published, archived.'] })],
    ['a body that is not an object', 'editor', 'POST', '/posts', ['title'], 400, { message: 'The request body must be a JSON object.' }],
  ];

  it.each(WRITES)('%s', async (_case, who, method, path, body, status, expected) => {
    const response = await call(who, method, path, await fixture(), body);
    expect(response.status).toBe(status);
    const { author_id: author, ...rest } = expected as { author_id?: Who };
    expect(response.body).toMatchObject(rest);
    if (author) expect(response.body.author_id).toBe(userIds[author]);
  });

  it('keeps the record of a * role that names another organization in the URL’s organization', async () => {
    const globexId = await idOf(server, 'organizations', 'slug', 'globex');
    const response = await call('owner', 'POST', '/posts', await fixture(), { title: 'Named elsewhere', organization_id: globexId });
    expect(response.status).toBe(201);
    expect(response.body.organization_id).toBe(acmeId);
    expect(await server.sql("SELECT organization_id FROM posts WHERE title = 'Named elsewhere'")).toEqual([{ organization_id: acmeId }]);
  });

  it.each([
    ['owner', true],
    ['editor', true],
    ['viewer', false],
  ] as const)('%s sees internal notes: %s (show, index and audit)', async (who, sees) => {
    const data = await fixture();
    await call('owner', 'PUT', `/posts/${data.post}`, data, { internal_notes: 'Changed note' });
    const show = await call(who, 'GET', `/posts/${data.post}`, data);
    const index = await call(who, 'GET', '/posts?per_page=100', data);
    const audit = await call(who, 'GET', `/posts/${data.post}/audit`, data);
    const records = [show.body, ...index.body.data, ...audit.body.data.flatMap((entry: { old_values: unknown; new_values: unknown }) => [entry.old_values, entry.new_values])];
    const withNotes = records.filter((record) => record !== null && 'internal_notes' in record);
    if (sees) expect(withNotes).not.toEqual([]);
    else expect(withNotes).toEqual([]);
    expect(show.body.title).toBe('Fixture');
  });
});

describe('includes: every hop needs the included model’s index permission', () => {
  // [who, path, status, message of a refusal]
  const INCLUDES: [Who, Path, number, string?][] = [
    ['viewer', '/posts?include=comments', 200],
    ['viewer', '/posts?include=author', 403, 'You do not have permission to include author.'],
    ['viewer', '/posts?include=comments.author', 403, 'You do not have permission to include comments.author.'],
    ['viewer', '/posts?include=comments,author', 403, 'You do not have permission to include author.'],
    ['viewer', (f) => `/posts/${f.post}?include=author`, 403, 'You do not have permission to include author.'],
    ['viewer', '/comments?include=author', 403, 'You do not have permission to include author.'],
    ['editor', '/posts?include=author,comments.author', 200],
    ['editor', (f) => `/posts/${f.post}?include=comments.author`, 200],
    ['editor', '/posts/trashed?include=author', 200],
    ['editor', '/posts?include=comments.secrets', 400, 'Unknown include: comments.secrets.'],
    ['editor', '/posts?include=author,,comments', 400, 'Invalid include "author,,comments": it has an empty relation name'],
    ['owner', '/users?include=posts', 400, 'Unknown include: posts.'],
  ];

  it.each(INCLUDES)('%s: %s → %i', async (who, path, status, message) => {
    const response = await call(who, 'GET', path, await fixture());
    expect(response.status).toBe(status);
    if (message) expect(response.body.message).toBe(message);
  });

  it('nests the included records, each through its own read gate', async () => {
    const data = await fixture();
    const show = await call('editor', 'GET', `/posts/${data.post}?include=author,comments.author`, data);
    expect(show.body.author).toEqual({ id: userIds.owner, name: 'Olivia Owner', email: 'owner@acme.test', created_at: expect.any(String), updated_at: expect.any(String) });
    expect(show.body.comments).toEqual([expect.objectContaining({ id: data.comment, body: 'Fixture comment', author: expect.objectContaining({ id: userIds.owner }) })]);
    const viewer = await call('viewer', 'GET', `/posts/${data.post}?include=comments`, data);
    expect(viewer.body.comments).toEqual([expect.objectContaining({ id: data.comment })]);
    expect(viewer.body).not.toHaveProperty('internal_notes');
  });
});

describe('order of checks: the first gate that fails answers', () => {
  // [case, who, method, path (absolute), body, status, answer]
  const ORDER: [string, Who | null, string, (f: Fixture) => string, Body, number, unknown][] = [
    ['authentication before the organization', null, 'GET', () => `/api/globex/posts/${globexPost}`, undefined, 401, { message: 'Unauthenticated.' }],
    ['the organization before the record', 'viewer', 'GET', () => `/api/globex/posts/${globexPost}`, undefined, 404, { message: 'Organization not found' }],
    ['the record before the policy', 'viewer', 'DELETE', () => `/api/acme/posts/${globexPost}`, undefined, 404, { message: 'Resource not found' }],
    ['the record before the includes', 'viewer', 'GET', () => `/api/acme/posts/${globexPost}?include=author`, undefined, 404, { message: 'Resource not found' }],
    ['the policy before the fields', 'viewer', 'POST', () => '/api/acme/posts', { title: 'T', internal_notes: 'n' }, 403, lacking('posts.store')],
    ['the policy before the fields, on update', 'viewer', 'PUT', (f) => `/api/acme/posts/${f.post}`, { internal_notes: 'n' }, 403, lacking('posts.update')],
    ['the policy before the includes', 'viewer', 'GET', () => '/api/acme/posts/trashed?include=author', undefined, 403, lacking('posts.trashed')],
    ['the fields before validation', 'editor', 'POST', () => '/api/acme/posts', { internal_notes: 'no title' }, 403, { message: 'You are not allowed to set the following field(s): internal_notes', reason: { gate: 'fields', fields: ['internal_notes'], policy: 'PostPolicy.permittedAttributesForCreate' } }],
    ['validation last', 'editor', 'POST', () => '/api/acme/posts', {}, 422, { message: 'The given data was invalid.', errors: { title: ['The title field is required.'] } }],
  ];

  it.each(ORDER)('%s', async (_case, who, method, path, body, status, answer) => {
    const data = await fixture();
    const response = await server.api.request(method, path(data), { token: who ? tokens[who] : undefined, body });
    expect(response.status).toBe(status);
    expect(response.body).toEqual(answer);
  });
});

describe('effective permissions over HTTP: (role ∪ granted) − denied, a deny always wins', () => {
  /** A fresh organization with one post and this member, signed in; every request is as them. */
  async function memberOf(membership: Omit<Membership, 'account'>) {
    const [account] = await createAccounts(server, membership.role);
    const tenant = await createTenant(server, [{ account, ...membership }]);
    const [post] = await server.sql('INSERT INTO posts (organization_id, title) VALUES ($1, $2) RETURNING id', [tenant.id, 'Layered']);
    const as = (method: string, path: string, body?: unknown) => server.api.request(method, tenant.path(path), { token: account.token, body });
    return { account, post: post.id as number, as };
  }

  it('a per-user deny wins over a * role, on that action only', async () => {
    const { post, as } = await memberOf({ role: 'owner', denied: ['posts.destroy'] });
    expect(await as('DELETE', `/posts/${post}`)).toMatchObject({ status: 403, body: lacking('posts.destroy') });
    expect((await as('PUT', `/posts/${post}`, { title: 'Still mine' })).status).toBe(200);
    expect((await as('DELETE', `/posts/${post}/force-delete`)).status).toBe(204);
  });

  it('a deny of {slug}.* wins over a grant of one of its actions', async () => {
    const { post, as } = await memberOf({ role: 'viewer', granted: ['posts.show'], denied: ['posts.*'] });
    expect(await as('GET', `/posts/${post}`)).toMatchObject({ status: 403, body: lacking('posts.show') });
    expect((await as('GET', '/posts')).status).toBe(403);
    expect((await as('GET', '/comments')).status).toBe(200);
  });

  it('a grant adds to the role, and a deny of * leaves nothing', async () => {
    const granted = await memberOf({ role: 'viewer', granted: ['posts.trashed'] });
    expect((await granted.as('GET', '/posts/trashed')).status).toBe(200);
    const deniedAll = await memberOf({ role: 'owner', denied: ['*'] });
    expect((await deniedAll.as('GET', '/posts')).status).toBe(403);
    expect((await deniedAll.as('GET', '/user-role')).body).toMatchObject({ role: 'owner', permissions: [], rules: [] });
  });

  it('a tenant group reads the organization’s layers, never users.permissions', async () => {
    const { account, post, as } = await memberOf({ role: 'viewer' });
    await server.sql("UPDATE users SET permissions = '{*}', granted_permissions = '{posts.destroy}' WHERE id = $1", [account.id]);
    expect(await as('DELETE', `/posts/${post}`)).toMatchObject({ status: 403, body: lacking('posts.destroy') });
  });

  it('no data write reaches a permission list, not even a * owner’s on their own record', async () => {
    const { account, as } = await memberOf({ role: 'owner' });
    const lists = { permissions: ['*'], granted_permissions: ['*'], denied_permissions: [] };
    expect(await as('PUT', `/users/${account.id}`, lists)).toMatchObject({
      status: 403,
      body: { message: 'You are not allowed to set the following field(s): permissions, granted_permissions, denied_permissions' },
    });
    expect(await server.sql('SELECT permissions, granted_permissions FROM users WHERE id = $1', [account.id])).toEqual([{ permissions: [], granted_permissions: [] }]);
  });

  it('a group without tenancy reads users.permissions ∪ granted − denied, the deny winning over *', async () => {
    const [account] = await createAccounts(server, 'operator');
    const token = await server.login(account.email, { path: '/api/admin/auth/login' });
    const admin = (path: string) => server.api.get(`/api/admin${path}`, { token });
    await server.sql("UPDATE users SET permissions = '{*}', denied_permissions = '{users.index}' WHERE id = $1", [account.id]);
    expect(await admin('/users')).toMatchObject({ status: 403, body: lacking('users.index') });
    expect((await admin('/organizations')).status).toBe(200);
    await server.sql("UPDATE users SET permissions = '{}', granted_permissions = '{users.index}', denied_permissions = '{}' WHERE id = $1", [account.id]);
    expect((await admin('/users')).status).toBe(200);
    expect((await admin('/organizations')).status).toBe(403);
  });
});
