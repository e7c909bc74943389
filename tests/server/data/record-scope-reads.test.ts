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
