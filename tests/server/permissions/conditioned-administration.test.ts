import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idOf, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// Issue 35: roles, grants and denies hold conditioned permissions (`posts.update:own`) with no
// deploy; a condition the model's policy does not declare is refused, not silently kept.

let server: TestServer;
let owner: string;
let editor: string;

beforeAll(async () => {
  server = await startDataServer();
  [owner, editor] = await Promise.all([server.login('owner@acme.test'), server.login('editor@acme.test')]);
});

afterAll(() => server.close());

describe('conditioned permissions through the HTTP API', () => {
  it("lists each model's record conditions in the permission catalog", async () => {
    const catalog = (await server.api.get('/api/acme/permission-catalog', { token: owner })).body.data as { resource: string; kind: string; conditions?: string[] }[];
    expect(catalog.find((entry) => entry.resource === 'posts')).toMatchObject({ kind: 'model', conditions: ['own', 'published', 'visible'] });
    expect(catalog.find((entry) => entry.resource === 'comments')).toMatchObject({ kind: 'model', conditions: [] });
  });

  it('keeps a declared condition in a role, and refuses an undeclared one with 422 naming it', async () => {
    const viewer = await idOf(server, 'roles', 'slug', 'viewer');
    const path = `/api/acme/roles/${viewer}/permissions`;
    const saved = await server.api.request('PUT', path, { token: owner, body: { permissions: ['posts.index', 'posts.show', 'posts.update:own'] } });
    expect(saved.status).toBe(200);
    expect((await server.api.get(path, { token: owner })).body.permissions).toEqual(['posts.index', 'posts.show', 'posts.update:own']);

    const typo = await server.api.request('PUT', path, { token: owner, body: { permissions: ['posts.update:owned'] } });
    expect(typo.status).toBe(422);
    expect(typo.body.errors.permissions).toEqual(['The permission posts.update:owned names the condition owned, which the posts policy does not declare (it declares own, published, visible).']);
    const none = await server.api.request('PUT', path, { token: owner, body: { permissions: ['comments.update:own'] } });
    expect(none.status).toBe(422);
    expect(none.body.errors.permissions).toEqual(['The permission comments.update:own names the condition own, which the comments policy does not declare (it declares no record conditions).']);
    expect((await server.api.get(path, { token: owner })).body.permissions).toEqual(['posts.index', 'posts.show', 'posts.update:own']);
  });

  it('refuses a condition on a wildcard with 422 naming the reason, for roles and members alike', async () => {
    const viewer = await idOf(server, 'roles', 'slug', 'viewer');
    const editorId = await idOf(server, 'users', 'email', 'editor@acme.test');
    const reason = '(a condition is only allowed on {slug}.{action}, not on a wildcard).';
    const role = await server.api.request('PUT', `/api/acme/roles/${viewer}/permissions`, { token: owner, body: { permissions: ['posts.index', 'posts.*:own'] } });
    expect(role).toMatchObject({ status: 422, body: { errors: { 'permissions.1': [`The permissions field holds an invalid permission: "posts.*:own" ${reason}`] } } });
    const member = await server.api.request('PATCH', `/api/acme/members/${editorId}`, { token: owner, body: { granted_permissions: ['*:own'], denied_permissions: ['posts.*:own'] } });
    expect(member).toMatchObject({
      status: 422,
      body: {
        errors: {
          'granted_permissions.0': [`The granted permissions field holds an invalid permission: "*:own" ${reason}`],
          'denied_permissions.0': [`The denied permissions field holds an invalid permission: "posts.*:own" ${reason}`],
        },
      },
    });
    // Another service's resource has no policy here to declare a condition.
    const service = await server.api.request('PUT', `/api/acme/roles/${viewer}/permissions`, { token: owner, body: { permissions: ['invoices.approve:own'] } });
    expect(service).toMatchObject({
      status: 422,
      body: { errors: { permissions: ["The permission invoices.approve:own names the condition own, but invoices is not a model of this application: only a model's policy declares record conditions."] } },
    });
  });

  it("takes exactly the matching records from a member with a conditioned deny, and refuses an undeclared one", async () => {
    const editorId = await idOf(server, 'users', 'email', 'editor@acme.test');
    const member = `/api/acme/members/${editorId}`;
    const refused = await server.api.request('PATCH', member, { token: owner, body: { granted_permissions: ['posts.show:mine'] } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.granted_permissions).toEqual(['The permission posts.show:mine names the condition mine, which the posts policy does not declare (it declares own, published, visible).']);

    const own = (await server.api.post('/api/acme/posts', { token: editor, body: { title: 'Mine', status: 'published' } })).body.id as number;
    const others = (await server.api.get('/api/acme/posts', { token: editor })).body.data.find((post: { author_id: number | null }) => post.author_id !== editorId).id as number;
    expect((await server.api.request('PATCH', member, { token: owner, body: { denied_permissions: ['posts.update:own'] } })).status).toBe(200);
    expect((await server.api.request('PATCH', `/api/acme/posts/${own}`, { token: editor, body: { title: 'Still mine' } })).status).toBe(403);
    expect((await server.api.request('PATCH', `/api/acme/posts/${others}`, { token: editor, body: { title: 'Edited' } })).status).toBe(200);
  });
});
