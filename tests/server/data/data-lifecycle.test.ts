import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idOf, postId, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// A record's life over HTTP: the trash, the audit trail and nested operations that all succeed
// or leave nothing behind.

let server: TestServer;
let owner: string;
let editor: string;
let viewer: string;
let editorId: number;
let ownerId: number;
let welcomeId: number;

beforeAll(async () => {
  server = await startDataServer();
  owner = await server.login('owner@acme.test');
  editor = await server.login('editor@acme.test');
  viewer = await server.login('viewer@acme.test');
  editorId = await idOf(server, 'users', 'email', 'editor@acme.test');
  ownerId = await idOf(server, 'users', 'email', 'owner@acme.test');
  welcomeId = await postId(server, 'Welcome to Acme');
});

afterAll(() => server.close());

const titlesOf = (body: { data: { title: string }[] }) => body.data.map((post) => post.title);

describe('soft deletes', () => {
  it('trashes, restores and finally deletes a post; the editor’s force delete is refused by the deny list', async () => {
    const created = await server.api.post('/api/acme/posts', { token: editor, body: { title: 'Lifecycle' } });
    expect(created.status).toBe(201);
    const path = `/api/acme/posts/${created.body.id}`;

    expect((await server.api.delete(path, { token: editor })).status).toBe(204);
    expect(await server.api.get(path, { token: editor })).toMatchObject({ status: 404, body: { message: 'Resource not found' } });
    expect(titlesOf((await server.api.get('/api/acme/posts?per_page=100', { token: editor })).body)).not.toContain('Lifecycle');
    const trashed = await server.api.get('/api/acme/posts/trashed', { token: editor });
    expect(trashed.status).toBe(200);
    expect(titlesOf(trashed.body)).toEqual(['Lifecycle']);
    expect(trashed.headers['x-total']).toBe('1');
    expect((await server.api.delete(path, { token: editor })).status).toBe(404);

    const restored = await server.api.post(`${path}/restore`, { token: editor });
    expect(restored).toMatchObject({ status: 200, body: { id: created.body.id, title: 'Lifecycle', deleted_at: null } });
    expect((await server.api.get(path, { token: editor })).status).toBe(200);
    expect((await server.api.post(`${path}/restore`, { token: editor })).status).toBe(404);

    expect((await server.api.delete(path, { token: editor })).status).toBe(204);
    const refused = await server.api.delete(`${path}/force-delete`, { token: editor });
    expect(refused).toMatchObject({ status: 403, body: { message: 'This action is unauthorized.' } });
    expect(await server.sql('SELECT id FROM posts WHERE id = $1', [created.body.id])).toHaveLength(1);

    const audit = await server.api.get(`${path}/audit`, { token: editor });
    expect(audit.body.data.map((entry: { action: string }) => entry.action)).toEqual(['created', 'deleted', 'restored', 'deleted']);
    const lastPage = await server.api.get(`${path}/audit?page=2&per_page=3`, { token: editor });
    expect(lastPage.body.data.map((entry: { action: string }) => entry.action)).toEqual(['deleted']);
    expect(lastPage.headers).toMatchObject({ 'x-current-page': '2', 'x-last-page': '2', 'x-per-page': '3', 'x-total': '4' });
    expect(await server.api.get(`${path}/audit?per_page=101`, { token: editor })).toMatchObject({
      status: 400,
      body: { message: 'per_page must be an integer between 1 and 100.' },
    });

    expect((await server.api.delete(`${path}/force-delete`, { token: owner })).status).toBe(204);
    expect(await server.sql('SELECT id FROM posts WHERE id = $1', [created.body.id])).toEqual([]);
    expect((await server.api.get('/api/acme/posts/trashed', { token: editor })).body.data).toEqual([]);
    expect((await server.api.post(`${path}/restore`, { token: owner })).status).toBe(404);
    const rows = await server.sql('SELECT action, user_id FROM audit_logs WHERE model = $1 AND record_id = $2 ORDER BY id', ['posts', String(created.body.id)]);
    expect(rows).toEqual([
      { action: 'created', user_id: editorId },
      { action: 'deleted', user_id: editorId },
      { action: 'restored', user_id: editorId },
      { action: 'deleted', user_id: editorId },
      { action: 'force_deleted', user_id: ownerId },
    ]);
  });

  it.each([
    ['GET', '/api/acme/comments/trashed', 'Model comments does not use soft deletes.'],
    ['POST', '/api/acme/comments/1/restore', 'Model comments does not use soft deletes.'],
    ['DELETE', '/api/acme/comments/1/force-delete', 'Model comments does not use soft deletes.'],
    ['GET', '/api/acme/comments/1/audit', 'Model comments keeps no audit trail.'],
  ])('%s %s answers 404 for a model without the feature', async (method, path, message) => {
    const response = await server.api.request(method, path, { token: owner });
    expect(response).toMatchObject({ status: 404, body: { message } });
  });
});

describe('audit trail', () => {
  it('records what an update changed, by whom, oldest first', async () => {
    const created = await server.api.post('/api/acme/posts', { token: owner, body: { title: 'Audited', internal_notes: 'Draft note' } });
    await server.api.request('PUT', `/api/acme/posts/${created.body.id}`, { token: editor, body: { title: 'Audited again', status: 'published' } });
    const audit = await server.api.get(`/api/acme/posts/${created.body.id}/audit`, { token: editor });
    expect(audit.status).toBe(200);
    const [create, update] = audit.body.data;
    expect(create).toEqual({
      id: expect.any(Number),
      action: 'created',
      old_values: null,
      new_values: expect.objectContaining({ id: created.body.id, title: 'Audited', internal_notes: 'Draft note', author_id: ownerId }),
      user_id: ownerId,
      created_at: expect.any(String),
    });
    expect(update).toMatchObject({
      action: 'updated',
      old_values: { title: 'Audited', status: 'draft' },
      new_values: { title: 'Audited again', status: 'published' },
      user_id: editorId,
    });
    expect(Object.keys(update.new_values).sort()).toEqual(['status', 'title', 'updated_at']);
  });

  it('shows a viewer the history without the fields the viewer may not read', async () => {
    const created = await server.api.post('/api/acme/posts', { token: owner, body: { title: 'Noted', internal_notes: 'Secret' } });
    const audit = await server.api.get(`/api/acme/posts/${created.body.id}/audit`, { token: viewer });
    expect(audit.status).toBe(200);
    expect(audit.body.data[0].new_values).toMatchObject({ title: 'Noted' });
    expect(audit.body.data[0].new_values).not.toHaveProperty('internal_notes');
  });

  it('writes nothing for a refused or invalid request', async () => {
    const count = async () => (await server.sql('SELECT count(*)::int AS n FROM audit_logs'))[0].n;
    const before = await count();
    await server.api.request('PUT', `/api/acme/posts/${welcomeId}`, { token: viewer, body: { title: 'No' } });
    await server.api.request('PUT', `/api/acme/posts/${welcomeId}`, { token: editor, body: { title: '' } });
    await server.api.post('/api/acme/posts', { token: editor, body: { title: 'No', internal_notes: 'No' } });
    expect(await count()).toBe(before);
  });
});

describe('nested operations', () => {
  it('applies every operation in order, through both gates, and reports each result', async () => {
    const comment = await server.api.post('/api/acme/comments', { token: owner, body: { post_id: welcomeId, body: 'To be removed' } });
    const response = await server.api.post('/api/acme/nested', {
      token: editor,
      body: {
        operations: [
          { model: 'posts', action: 'create', data: { title: 'Nested one' } },
          { model: 'comments', action: 'create', data: { post_id: welcomeId, body: 'Nested comment' } },
          { model: 'posts', action: 'update', id: welcomeId, data: { status: 'archived' } },
          { model: 'comments', action: 'delete', id: comment.body.id },
        ],
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(4);
    expect(response.body[0]).toMatchObject({ id: expect.any(Number), title: 'Nested one', author_id: editorId });
    expect(response.body[1]).toMatchObject({ id: expect.any(Number), post_id: welcomeId, body: 'Nested comment' });
    expect(response.body[2]).toMatchObject({ id: welcomeId, status: 'archived' });
    expect(response.body[3]).toEqual({ id: comment.body.id, deleted: true });
    expect(await server.sql('SELECT id FROM comments WHERE id = $1', [comment.body.id])).toEqual([]);
    await server.api.request('PUT', `/api/acme/posts/${welcomeId}`, { token: owner, body: { status: 'published' } });
  });

  it('takes the model from {model}/nested when an operation names none', async () => {
    const response = await server.api.post('/api/acme/posts/nested', { token: editor, body: { operations: [{ action: 'create', data: { title: 'From the path' } }] } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([expect.objectContaining({ title: 'From the path' })]);
  });

  it('fills "$N.field" values from the results of earlier operations', async () => {
    const response = await server.api.post('/api/acme/nested', {
      token: editor,
      body: {
        operations: [
          { model: 'posts', action: 'create', data: { title: 'Referenced' } },
          { model: 'comments', action: 'create', data: { post_id: '$0.id', body: 'On the new post' } },
          { model: 'posts', action: 'update', id: '$0.id', data: { title: '$1.body' } },
          { model: 'comments', action: 'delete', id: '$1.id' },
        ],
      },
    });
    expect(response.status).toBe(200);
    const [post, comment, renamed, deleted] = response.body;
    expect(comment).toMatchObject({ post_id: post.id, body: 'On the new post' });
    expect(renamed).toMatchObject({ id: post.id, title: 'On the new post' });
    expect(deleted).toEqual({ id: comment.id, deleted: true });
    expect(await server.sql('SELECT title FROM posts WHERE id = $1', [post.id])).toEqual([{ title: 'On the new post' }]);
    expect(await server.sql('SELECT id FROM comments WHERE id = $1', [comment.id])).toEqual([]);
  });

  const comment = () => ({ model: 'comments', action: 'create', data: { post_id: welcomeId, body: 'Written by a rolled-back request' } });
  const rename = () => ({ model: 'posts', action: 'update', id: welcomeId, data: { title: 'Renamed by a rolled-back request' } });
  const create = { model: 'posts', action: 'create', data: { title: 'Created by a rolled-back request' } };
  const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });

  // [case, token, path, operations after a comment and a rename, status, answer]
  const ROLLBACKS: [string, () => string, string, () => unknown[], number, unknown][] = [
    ['an invalid record', () => editor, '/api/acme/nested', () => [{ model: 'posts', action: 'create', data: {} }], 422, invalid({ 'operations.2.title': ['The title field is required.'] })],
    ['another tenant’s record', () => owner, '/api/acme/nested', () => [{ model: 'posts', action: 'delete', id: globexId }], 404, { message: 'Resource not found' }],
    ['an unknown model', () => editor, '/api/acme/nested', () => [{ model: 'secrets', action: 'create', data: {} }], 404, { message: 'Unknown model: secrets.' }],
    ['a forbidden field', () => editor, '/api/acme/nested', () => [{ model: 'posts', action: 'update', id: welcomeId, data: { internal_notes: 'x' } }], 403, { message: 'You are not allowed to set the following field(s): internal_notes', reason: { gate: 'fields', fields: ['internal_notes'], policy: 'PostPolicy.permittedAttributesForCreate' } }],
    ['a refused action (the viewer may comment, not rename)', () => viewer, '/api/acme/nested', () => [], 403, { message: 'This action is unauthorized.', reason: { gate: 'policy', permission: 'posts.update' } }],
    ['a missing id', () => editor, '/api/acme/nested', () => [{ model: 'posts', action: 'delete' }], 422, invalid({ 'operations.2.id': ['The id field is required.'] })],
    ['an unknown action', () => editor, '/api/acme/nested', () => [{ model: 'posts', action: 'publish', id: welcomeId }], 422, invalid({ 'operations.2.action': ['The action field must be one of: create, update, delete.'] })],
    ['no model at the data base', () => editor, '/api/acme/nested', () => [{ action: 'create', data: { title: 'x' } }], 422, invalid({ 'operations.2.model': ['The model field is required.'] })],
    ['a reference to a later operation', () => editor, '/api/acme/nested', () => [{ model: 'comments', action: 'create', data: { post_id: '$3.id', body: 'x' } }], 422, invalid({ 'operations.2.data.post_id': ['The reference $3.id must name an operation before operation 2.'] })],
    ['a reference to its own operation', () => editor, '/api/acme/nested', () => [{ model: 'posts', action: 'delete', id: '$2.id' }], 422, invalid({ 'operations.2.id': ['The reference $2.id must name an operation before operation 2.'] })],
    ['a reference to a missing field', () => editor, '/api/acme/nested', () => [{ model: 'posts', action: 'update', id: '$0.post_id', data: { title: '$0.nope' } }], 422, invalid({ 'operations.2.data.title': ['The reference $0.nope names a field that operation 0 did not return.'] })],
    ['a reference to another tenant’s record', () => owner, '/api/acme/nested', () => [{ model: 'posts', action: 'create', data: { title: 'x' } }, { model: 'comments', action: 'create', data: { post_id: globexId, body: '$2.title' } }], 422, invalid({ 'operations.3.post_id': ['The selected post id is invalid.'] })],
    ['more than 50 operations', () => editor, '/api/acme/nested', () => Array.from({ length: 49 }, () => create), 422, invalid({ operations: ['At most 50 operations are allowed.'] })],
  ];

  let globexId: number;
  beforeAll(async () => {
    globexId = await postId(server, 'Globex launch');
  });

  it.each(ROLLBACKS)('rolls everything back after %s', async (_case, token, path, tail, status, answer) => {
    const state = async () => ({
      posts: await server.sql('SELECT * FROM posts ORDER BY id'),
      comments: await server.sql('SELECT * FROM comments ORDER BY id'),
      audit: await server.sql('SELECT count(*) FROM audit_logs'),
    });
    const before = await state();
    const operations = [comment(), rename(), ...tail()];
    const response = await server.api.post(path, { token: token(), body: { operations } });
    expect(response.status).toBe(status);
    expect(response.body).toEqual(answer);
    expect(await state()).toEqual(before);
  });

  it.each([
    [{}, invalid({ operations: ['The operations field must be a list.'] })],
    [{ operations: [] }, invalid({ operations: ['The operations field must not be empty.'] })],
    [{ operations: [{ model: 'posts', action: 'update', id: 1 }] }, invalid({ 'operations.0.data': ['The data field is required.'] })],
  ])('rejects the body %j with 422', async (body, answer) => {
    const response = await server.api.post('/api/acme/nested', { token: editor, body });
    expect(response).toMatchObject({ status: 422, body: answer });
  });
});

describe('query parameters on writes', () => {
  const state = async () => ({ posts: await server.sql('SELECT * FROM posts ORDER BY id'), audit: await server.sql('SELECT count(*) FROM audit_logs') });
  const at = (path: string) => `/api/acme${path.replace('WELCOME', String(welcomeId))}`;

  // A write that answers nothing takes no parameters: one it would ignore is refused before the record gate, and nothing is written.
  it.each([
    ['DELETE', '/posts/WELCOME', undefined],
    ['DELETE', '/posts/WELCOME/force-delete', undefined],
    ['POST', '/nested', { operations: [{ model: 'posts', action: 'create', data: { title: 'Asked to include' } }] }],
    ['POST', '/posts/nested', { operations: [{ action: 'create', data: { title: 'Asked to include' } }] }],
    ['POST', '/posts', { title: 'Asked for fields' }, 'fields[posts]=title', 'fields[posts]'],
  ])('%s %s with a parameter it does not take → 400', async (method, path, body, parameter = 'include=author', name = 'include') => {
    const before = await state();
    const response = await server.api.request(method, `${at(path)}?${parameter}`, { token: owner, body });
    expect(response).toMatchObject({ status: 400, body: { message: `Unknown query parameter: ${name}.` } });
    expect(await state()).toEqual(before);
  });

  it('answer store, update and restore with the relations they include, read after the write', async () => {
    const created = await server.api.post(at('/posts?include=author,comments'), { token: owner, body: { title: 'Included on store' } });
    expect(created).toMatchObject({ status: 201, body: { title: 'Included on store', author: { name: 'Olivia Owner' }, comments: [] } });
    const path = `/posts/${created.body.id}`;
    const updated = await server.api.request('PATCH', at(`${path}?include=author`), { token: owner, body: { title: 'Included on update' } });
    expect(updated).toMatchObject({ status: 200, body: { title: 'Included on update', author: { name: 'Olivia Owner' } } });
    expect((await server.api.delete(at(path), { token: owner })).status).toBe(204);
    expect(await server.api.post(at(`${path}/restore?include=author`), { token: owner })).toMatchObject({ status: 200, body: { author: { name: 'Olivia Owner' } } });
    expect((await server.api.get(at(path), { token: owner })).body.title).toBe('Included on update');
  });

  // DESIGN.md's order: action policy → write fields (403) → includes (403) → validation (422).
  it('authorize the includes after the write fields and before validation, writing nothing when refused', async () => {
    const contributor = await server.login('contributor@acme.test');
    const before = await state();
    const write = (body: object) => server.api.post(at('/posts?include=author'), { token: contributor, body });
    expect(await write({ title: 'Noted', internal_notes: 'x' })).toMatchObject({ status: 403, body: { message: 'You are not allowed to set the following field(s): internal_notes' } });
    expect(await write({ title: 'Authored' })).toMatchObject({ status: 403, body: { message: 'You do not have permission to include author.' } });
    expect(await write({})).toMatchObject({ status: 403, body: { message: 'You do not have permission to include author.' } });
    expect(await state()).toEqual(before);
    expect(await server.api.post(at('/posts?include=nothing'), { token: owner, body: { title: 'x' } })).toMatchObject({ status: 400 });
  });
});
