import { createMongoAbility, subject } from '@casl/ability';
import { unpackRules } from '@casl/ability/extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpackAbility } from '@gatehouse/engine';
import { startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// Issue 35: the contributor's conditioned permissions (posts.index:visible, posts.show:visible,
// posts.update:own, posts.destroy:own) decide the list, the record, the action and the client's rules alike.

let server: TestServer;
let contributor: string;
let editor: string;

interface PostRow {
  id: number;
  title: string;
  status: string;
  author_id: number | null;
}

beforeAll(async () => {
  server = await startDataServer();
  [contributor, editor] = await Promise.all([server.login('contributor@acme.test'), server.login('editor@acme.test')]);
});

afterAll(() => server.close());

const titles = (rows: PostRow[]) => rows.map((row) => row.title).sort();

describe('the contributor', () => {
  it('lists published posts and its own drafts, and counts only those', async () => {
    const before = await server.api.get('/api/acme/posts', { token: contributor });
    expect(before.status).toBe(200);
    expect(titles(before.body.data)).toEqual(['Office move', 'Quarterly roadmap', 'Welcome to Acme']);
    const created = await server.api.post('/api/acme/posts', { token: contributor, body: { title: 'My draft', status: 'draft' } });
    expect(created.status).toBe(201);
    const after = await server.api.get('/api/acme/posts', { token: contributor });
    expect(titles(after.body.data)).toEqual(['My draft', 'Office move', 'Quarterly roadmap', 'Welcome to Acme']);
    expect(after.headers['x-total']).toBe('4');
  });

  it('gets a 404 for a draft it may not read, a 403 naming the condition for a post it may read but not change', async () => {
    const all = (await server.api.get('/api/acme/posts', { token: editor })).body.data as PostRow[];
    const othersDraft = all.find((post) => post.title === 'Hiring plan')!;
    const published = all.find((post) => post.title === 'Welcome to Acme')!;
    expect((await server.api.get(`/api/acme/posts/${othersDraft.id}`, { token: contributor })).status).toBe(404);
    expect((await server.api.request('PATCH', `/api/acme/posts/${othersDraft.id}`, { token: contributor, body: { title: 'x' } })).status).toBe(404);
    expect((await server.api.get(`/api/acme/posts/${published.id}`, { token: contributor })).status).toBe(200);
    const refused = await server.api.request('PATCH', `/api/acme/posts/${published.id}`, { token: contributor, body: { title: 'Mine now' } });
    expect(refused.status).toBe(403);
    expect(refused.body.reason).toMatchObject({ gate: 'policy', permission: 'posts.update', conditions: ['posts.update:own'] });
    expect((await server.api.delete(`/api/acme/posts/${published.id}`, { token: contributor })).status).toBe(403);
    const checks = [{ model: 'posts', action: 'update', id: published.id }, { model: 'posts', action: 'update', id: othersDraft.id }];
    const asked = await server.api.post('/api/acme/authorize', { token: contributor, body: { checks } });
    expect(asked.body.results).toEqual([
      { allowed: false, message: 'This action is unauthorized.', reason: refused.body.reason },
      { allowed: false, message: 'Resource not found', reason: { gate: 'record' } },
    ]);
  });

  it('updates and deletes its own post', async () => {
    const created = await server.api.post('/api/acme/posts', { token: contributor, body: { title: 'Short-lived', status: 'published' } });
    const id = created.body.id as number;
    const updated = await server.api.request('PATCH', `/api/acme/posts/${id}`, { token: contributor, body: { title: 'Renamed' } });
    expect(updated.status).toBe(200);
    expect(updated.body.title).toBe('Renamed');
    expect((await server.api.delete(`/api/acme/posts/${id}`, { token: contributor })).status).toBe(204);
  });

  it('receives rules whose conditions answer as the server does, its own id filled in', async () => {
    const role = await server.api.get('/api/acme/user-role', { token: contributor });
    expect(role.body.permissions).toContain('posts.update:own');
    const browser = unpackAbility(role.body.rules);
    const own = await server.api.post('/api/acme/posts', { token: contributor, body: { title: 'Whose?' } });
    const me = own.body.author_id as number;
    expect(browser.can('update', subject('posts', { author_id: me, status: 'draft' }))).toBe(true);
    expect(browser.can('update', subject('posts', { author_id: me + 1, status: 'published' }))).toBe(false);
    expect(browser.can('show', subject('posts', { author_id: me + 1, status: 'published' }))).toBe(true);
    expect(browser.can('show', subject('posts', { author_id: me + 1, status: 'draft' }))).toBe(false);
  });

  it('receives rules that any CASL app, with its default options, reads as the server answers each post', async () => {
    await server.api.post('/api/acme/posts', { token: contributor, body: { title: 'Its draft', status: 'draft' } });
    const { rules } = (await server.api.get('/api/acme/user-role', { token: contributor })).body;
    const casl = createMongoAbility<[string, ReturnType<typeof subject>]>(unpackRules(rules));
    const posts = (await server.api.get('/api/acme/posts?per_page=100', { token: editor })).body.data as PostRow[];
    const checks = posts.flatMap((post) => (['show', 'update', 'destroy'] as const).map((action) => ({ model: 'posts', action, id: post.id })));
    const { results } = (await server.api.post('/api/acme/authorize', { token: contributor, body: { checks } })).body;
    const answers = checks.map((check, index) => ({ ...check, allowed: results[index].allowed as boolean }));
    const read = checks.map((check) => ({ ...check, allowed: casl.can(check.action, subject('posts', posts.find((post) => post.id === check.id)!)) }));
    expect(read).toEqual(answers);
    expect(answers.filter((answer) => answer.allowed).length).toBeGreaterThan(3);
  });
});
