import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoData } from '../../../policies/demo-data.js';
import { postOptions } from '../../../policies/models/posts.js';
import { defineModel } from '../../../server/models/define-model.js';
import { idOf, postId, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// A model's recordScope hides records from members whatever their permissions: every read that
// shows a record's values, or tells that it exists, passes through it, as show and index do.

/** Posts whose archived ones only their author sees: the owner's `*` does not reach them. */
const scopedPosts = defineModel({
  ...postOptions,
  recordScope: (query, { userId }) => query.where((eb) => eb.or([eb('status', '<>', 'archived'), eb('author_id', '=', userId ?? 0)])),
});

let server: TestServer;
let owner: string;
let editor: string;
let archived: number;
let seen: number;

beforeAll(async () => {
  server = await startDataServer({ data: { ...demoData, models: demoData.models!.map((model) => (model.slug === 'posts' ? scopedPosts : model)) } });
  [owner, editor] = await Promise.all([server.login('owner@acme.test'), server.login('editor@acme.test')]);
  const created = await server.api.post('/api/acme/posts', { token: editor, body: { title: 'Layoff plan', body: 'Names attached.' } });
  expect(created.status).toBe(201);
  archived = created.body.id as number;
  expect((await server.api.request('PATCH', `/api/acme/posts/${archived}`, { token: editor, body: { status: 'archived' } })).status).toBe(200);
  seen = await postId(server, 'Office move');
  expect((await server.api.request('PATCH', `/api/acme/posts/${seen}`, { token: owner, body: { body: 'We are moving in June.' } })).status).toBe(200);
});

afterAll(() => server.close());

describe('a record hidden by its model’s recordScope', () => {
  it('answers 404 to the member it is hidden from, and its author sees it', async () => {
    expect((await server.api.get(`/api/acme/posts/${archived}`, { token: owner })).status).toBe(404);
    expect((await server.api.get(`/api/acme/posts/${archived}/audit`, { token: owner })).status).toBe(404);
    expect((await server.api.get(`/api/acme/posts/${archived}`, { token: editor })).status).toBe(200);
  });

  it('leaves the organization’s audit trail, its count too, for that member only', async () => {
    const trail = await server.api.get('/api/acme/audit?filter[model]=posts', { token: owner });
    expect(trail.status).toBe(200);
    expect(trail.body.data.map((entry: { action: string; record_id: string }) => [entry.action, entry.record_id])).toEqual([['updated', String(seen)]]);
    expect(trail.headers['x-total']).toBe('1');
    expect(JSON.stringify(trail.body)).not.toContain('Layoff plan');

    await server.sql("UPDATE user_roles SET granted_permissions = '{audit.index}' WHERE user_id = $1", [await idOf(server, 'users', 'email', 'editor@acme.test')]);
    const authors = await server.api.get('/api/acme/audit?filter[model]=posts', { token: editor });
    expect(authors.body.data.filter((entry: { record_id: string }) => entry.record_id === String(archived)).map((entry: { action: string }) => entry.action)).toEqual(['updated', 'created']);
    expect(authors.headers['x-total']).toBe('3');
  });
});

describe('every other read of a record hidden by its model’s recordScope', () => {
  it('leaves it out: lists and their counts, aggregates, includes, the trash and authorize checks', async () => {
    const get = (path: string, token: string) => server.api.get(`/api/acme${path}`, { token });
    const index = await get('/posts?per_page=100', owner);
    expect(index.body.data.map((post: { id: number }) => post.id)).not.toContain(archived);
    expect((await get('/posts?per_page=100', editor)).headers['x-total']).toBe(String(Number(index.headers['x-total']) + 1));
    expect((await get('/posts/computed', owner)).body).toMatchObject({ total: Number(index.headers['x-total']) });

    const comment = await server.api.post('/api/acme/comments', { token: editor, body: { post_id: archived, body: 'Keep it quiet.' } });
    expect(comment.status).toBe(201);
    expect((await get(`/comments/${comment.body.id}?include=post`, owner)).body.post).toBeNull();
    expect((await get(`/comments/${comment.body.id}?include=post`, editor)).body.post).toMatchObject({ title: 'Layoff plan' });

    const checked = await server.api.post('/api/acme/authorize', { token: owner, body: { checks: [{ model: 'posts', action: 'show', id: archived }] } });
    expect(checked.body.results).toMatchObject([{ allowed: false, reason: { gate: 'record' } }]);

    expect((await server.api.delete(`/api/acme/posts/${archived}`, { token: editor })).status).toBe(204);
    expect((await get('/posts/trashed', owner)).body.data).toEqual([]);
    expect((await get('/posts/trashed', editor)).body.data.map((post: { id: number }) => post.id)).toEqual([archived]);
  });
});
