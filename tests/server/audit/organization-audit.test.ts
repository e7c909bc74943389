import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idOf, postId, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// The organization's audit trail and the permission catalog behind the admin console.
let server: TestServer;
let tokens: Record<'owner' | 'editor' | 'viewer' | 'globex', string>;

beforeAll(async () => {
  server = await startDataServer();
  const [owner, editor, viewer, globex] = await Promise.all(
    ['owner@acme.test', 'editor@acme.test', 'viewer@acme.test', 'owner@globex.test'].map((email) => server.login(email)),
  );
  tokens = { owner: owner!, editor: editor!, viewer: viewer!, globex: globex! };
  const id = await postId(server, 'Quarterly roadmap');
  const edit = await server.api.request('PATCH', `/api/acme/posts/${id}`, { token: tokens.owner, body: { title: 'Quarterly roadmap v2', internal_notes: 'Dates moved.' } });
  expect(edit.status).toBe(200);
  const globexPost = await server.api.post('/api/globex/posts', { token: tokens.globex, body: { title: 'Globex only' } });
  expect(globexPost.status).toBe(201);
});

afterAll(() => server.close());

const grant = async (email: string, permissions: string[]) =>
  server.sql('UPDATE user_roles SET granted_permissions = $2 WHERE user_id = $1', [await idOf(server, 'users', 'email', email), permissions]);

interface Entry {
  model: string;
  action: string;
  old_values: Record<string, unknown> | null;
  new_values: Record<string, unknown> | null;
  user: { name: string } | null;
}

describe('GET {t}/audit', () => {
  it('answers the owner the organization’s changes, newest first, paged, and nothing of another organization', async () => {
    const response = await server.api.get('/api/acme/audit?per_page=1', { token: tokens.owner });
    expect(response.status).toBe(200);
    expect(response.headers['x-per-page']).toBe('1');
    expect(Number(response.headers['x-total'])).toBeGreaterThanOrEqual(1);
    const [latest] = response.body.data as Entry[];
    expect(latest).toMatchObject({ model: 'posts', action: 'updated', user: { name: 'Olivia Owner' } });
    expect(latest!.new_values).toMatchObject({ title: 'Quarterly roadmap v2', internal_notes: 'Dates moved.' });

    const all = (await server.api.get('/api/acme/audit?per_page=100', { token: tokens.owner })).body.data as Entry[];
    expect(JSON.stringify(all)).not.toContain('Globex only');
  });

  it('needs audit.index: a 403 for the viewer, whatever the filters', async () => {
    for (const path of ['/api/acme/audit', '/api/acme/audit?filter[model]=posts']) {
      expect(await server.api.get(path, { token: tokens.viewer })).toMatchObject({ status: 403, body: { message: 'This action is unauthorized.' } });
    }
    expect(await server.api.get('/api/acme/audit', { token: tokens.globex })).toMatchObject({ status: 404 });
  });

  it('shows a record’s values through the reader’s own read gate', async () => {
    await grant('viewer@acme.test', ['comments.store', 'audit.index']);
    const viewed = (await server.api.get('/api/acme/audit?filter[model]=posts&filter[action]=updated', { token: tokens.viewer })).body.data as Entry[];
    expect(viewed[0]!.new_values).toMatchObject({ title: 'Quarterly roadmap v2' });
    expect(JSON.stringify(viewed)).not.toContain('internal_notes');
    expect(JSON.stringify(viewed)).not.toContain('Dates moved.');
    await grant('viewer@acme.test', ['comments.store']);
  });

  it('shows a reader with record conditions only the changes of records those conditions let them see', async () => {
    const draft = await postId(server, 'Hiring plan');
    expect((await server.api.request('PATCH', `/api/acme/posts/${draft}`, { token: tokens.editor, body: { body: 'Three engineers.' } })).status).toBe(200);
    await grant('contributor@acme.test', ['audit.index']);
    const contributor = await server.login('contributor@acme.test');
    // posts.show:visible: published posts and their own, so another author's draft is a 404.
    expect((await server.api.get(`/api/acme/posts/${draft}/audit`, { token: contributor })).status).toBe(404);
    const trail = await server.api.get('/api/acme/audit?filter[model]=posts', { token: contributor });
    expect(trail.body.data.map((entry: Entry) => entry.new_values?.title)).toEqual(['Quarterly roadmap v2']);
    expect(trail.headers['x-total']).toBe('1');
    await grant('contributor@acme.test', []);
  });

  it('shows a reader who may not see a model’s records none of its changes', async () => {
    await grant('viewer@acme.test', ['audit.index']);
    await server.sql("UPDATE user_roles SET denied_permissions = '{posts.show}' WHERE user_id = $1", [await idOf(server, 'users', 'email', 'viewer@acme.test')]);
    const trail = await server.api.get('/api/acme/audit?filter[model]=posts', { token: tokens.viewer });
    expect(trail.status).toBe(200);
    expect(trail.body.data).toEqual([]);
    expect(trail.headers['x-total']).toBe('0');
    await server.sql("UPDATE user_roles SET denied_permissions = '{}' WHERE user_id = $1", [await idOf(server, 'users', 'email', 'viewer@acme.test')]);
    await grant('viewer@acme.test', ['comments.store']);
  });

  it('filters by model, user and action, and refuses a malformed filter with a 400 naming it', async () => {
    const ownerId = await idOf(server, 'users', 'email', 'owner@acme.test');
    const filtered = await server.api.get(`/api/acme/audit?filter[model]=posts&filter[user_id]=${ownerId}&filter[action]=updated`, { token: tokens.owner });
    expect(filtered.status).toBe(200);
    expect((filtered.body.data as Entry[]).every((entry) => entry.model === 'posts' && entry.action === 'updated')).toBe(true);
    expect((await server.api.get('/api/acme/audit?filter[action]=created&filter[model]=comments', { token: tokens.owner })).body.data).toEqual([]);
    expect(await server.api.get('/api/acme/audit?filter[user_id]=abc', { token: tokens.owner })).toMatchObject({ status: 400, body: { message: 'Invalid query parameter: filter[user_id].' } });
    // Paged as an index is, with its bounds and the 400 naming them (docs/reference/limits.md).
    expect(await server.api.get('/api/acme/audit?per_page=101', { token: tokens.owner })).toMatchObject({ status: 400, body: { message: 'per_page must be an integer between 1 and 100.' } });
    expect(await server.api.get('/api/acme/audit?page=0', { token: tokens.owner })).toMatchObject({ status: 400, body: { message: 'page must be an integer between 1 and 1000000000.' } });
    expect(await server.api.get('/api/acme/audit?sort=id', { token: tokens.owner })).toMatchObject({ status: 400, body: { message: 'Unknown query parameter: sort.' } });
  });
});

describe('GET {t}/permission-catalog', () => {
  it('lists the served models’ standard actions and the administration operations, once each', async () => {
    const response = await server.api.get('/api/acme/permission-catalog', { token: tokens.viewer });
    expect(response.status).toBe(200);
    const entries = response.body.data as { resource: string; kind: string; actions: string[] }[];
    expect(entries.find((entry) => entry.resource === 'posts')).toEqual({
      resource: 'posts',
      kind: 'model',
      actions: ['index', 'show', 'store', 'update', 'destroy', 'trashed', 'restore', 'forceDelete'],
      conditions: ['own', 'published', 'visible'],
    });
    expect(entries.find((entry) => entry.resource === 'memberships')).toEqual({ resource: 'memberships', kind: 'administration', actions: ['index', 'update', 'destroy'] });
    const resources = entries.map((entry) => entry.resource);
    expect(new Set(resources).size).toBe(resources.length);
    expect(await server.api.get('/api/acme/permission-catalog', { token: tokens.globex })).toMatchObject({ status: 404 });
  });
});
