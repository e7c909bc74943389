import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMemberEmails, demoOrganizationIds, demoPostTitles } from '../../support/demo.js';
import { ACME_HOST, DATA_ROUTE_GROUPS, idOf, postId, startDataServer } from '../support/data-server.js';
import { DEMO_PASSWORD, type TestServer } from '../support/test-server.js';

// Tenancy over HTTP: another tenant's ids on every endpoint, and every shape of data base.

let server: TestServer;
let acmeOwner: string;
let globex: { post: number; trashed: number; comment: number; owner: number };
let organizations: { acme: number; globex: number };

// A prefix group with subdomain tenancy: the client's `subdomain` tenancy with the group in the data path.
const HUB_HOST = 'acme.hub.test';

beforeAll(async () => {
  server = await startDataServer({ routeGroups: [...DATA_ROUTE_GROUPS, { name: 'hub', prefix: 'hub', domain: '{organization}.hub.test', models: ['posts'] }] });
  // The editor is also a member of acme in the domain groups.
  await server.sql(`INSERT INTO user_roles (user_id, organization_id, role_id, route_group)
    SELECT u.id, o.id, r.id, g.name FROM users u, organizations o, roles r, (VALUES ('portal'), ('hub')) AS g(name)
    WHERE u.email = 'editor@acme.test' AND o.slug = 'acme' AND r.slug = 'editor'`);
  acmeOwner = await server.login('owner@acme.test');
  organizations = await demoOrganizationIds(server.database.ownerUrl);
  const [trashed] = await server.sql(
    `INSERT INTO posts (organization_id, title, deleted_at) VALUES ($1, 'Globex trash', now()) RETURNING id`,
    [organizations.globex],
  );
  const post = await postId(server, 'Globex launch');
  const [comment] = await server.sql('SELECT id FROM comments WHERE post_id = $1', [post]);
  globex = { post, trashed: trashed.id, comment: comment.id, owner: await idOf(server, 'users', 'email', 'owner@globex.test') };
});

afterAll(() => server.close());

/** globex's rows, its audit trail and the acme rows a foreign write could have produced. */
const state = async () => ({
  posts: await server.sql('SELECT * FROM posts ORDER BY id'),
  comments: await server.sql('SELECT * FROM comments ORDER BY id'),
  organizations: await server.sql('SELECT * FROM organizations ORDER BY id'),
  users: await server.sql('SELECT id, name FROM users ORDER BY id'),
  audit: await server.sql('SELECT count(*) FROM audit_logs'),
});

describe('another tenant’s ids: 404 on every endpoint, nothing changed', () => {
  // acme's owner holds `*`, so only the record gate stands between them and globex's rows.
  const CASES: [string, string, () => string, () => unknown][] = [
    ['show', 'GET', () => `/posts/${globex.post}`, () => undefined],
    ['show with includes', 'GET', () => `/posts/${globex.post}?include=author,comments`, () => undefined],
    ['update (PUT)', 'PUT', () => `/posts/${globex.post}`, () => ({ title: 'Taken over' })],
    ['update (PATCH)', 'PATCH', () => `/posts/${globex.post}`, () => ({ title: 'Taken over' })],
    ['destroy', 'DELETE', () => `/posts/${globex.post}`, () => undefined],
    ['restore', 'POST', () => `/posts/${globex.trashed}/restore`, () => undefined],
    ['force delete', 'DELETE', () => `/posts/${globex.post}/force-delete`, () => undefined],
    ['force delete of a trashed record', 'DELETE', () => `/posts/${globex.trashed}/force-delete`, () => undefined],
    ['audit', 'GET', () => `/posts/${globex.post}/audit`, () => undefined],
    ['show a comment', 'GET', () => `/comments/${globex.comment}`, () => undefined],
    ['update a comment', 'PUT', () => `/comments/${globex.comment}`, () => ({ body: 'Taken over' })],
    ['destroy a comment', 'DELETE', () => `/comments/${globex.comment}`, () => undefined],
    ['show a user of the other tenant', 'GET', () => `/users/${globex.owner}`, () => undefined],
    ['rename a user of the other tenant', 'PUT', () => `/users/${globex.owner}`, () => ({ name: 'Taken over' })],
    ['show the other organization', 'GET', () => `/organizations/${organizations.globex}`, () => undefined],
    ['rename the other organization', 'PUT', () => `/organizations/${organizations.globex}`, () => ({ name: 'Taken over' })],
    ['nested update', 'POST', () => '/nested', () => ({ operations: [{ model: 'posts', action: 'update', id: globex.post, data: { title: 'Taken over' } }] })],
    ['nested delete', 'POST', () => '/comments/nested', () => ({ operations: [{ action: 'delete', id: globex.comment }] })],
  ];

  it.each(CASES)('%s', async (_case, method, path, body) => {
    const before = await state();
    for (const base of ['/api/acme', '/api/tenant/acme']) {
      const response = await server.api.request(method, `${base}${path()}`, { token: acmeOwner, body: body() });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'Resource not found' });
    }
    expect(await state()).toEqual(before);
  });

  it('lists none of them', async () => {
    const acme = await idOf(server, 'organizations', 'slug', 'acme');
    for (const model of ['posts', 'comments', 'users']) {
      const response = await server.api.get(`/api/acme/${model}?per_page=100`, { token: acmeOwner });
      expect(response.status).toBe(200);
      const rows = response.body.data as { organization_id?: number }[];
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) if ('organization_id' in row) expect(row.organization_id).toBe(acme);
      expect(JSON.stringify(response.body)).not.toMatch(/Globex|globex/);
    }
    const organization = await server.api.get(`/api/acme/organizations/${acme}`, { token: acmeOwner });
    expect(organization).toMatchObject({ status: 200, body: { id: acme, slug: 'acme' } });
  });
});

describe('every data base shape', () => {
  const login = async (path: string, email: string, host?: string) => {
    const response = await server.api.post(path, { host, body: { email, password: DEMO_PASSWORD } });
    expect(response.status).toBe(200);
    return response.body.token as string;
  };
  const titles = (body: { data: { title: string }[] }) => body.data.map((post) => post.title).sort();

  it.each([
    ['path tenancy', '/api/auth/login', '/api/acme/posts?per_page=100', undefined],
    ['the route group in the data path', '/api/auth/login', '/api/tenant/acme/posts?per_page=100', undefined],
    ['subdomain tenancy, the organization in the Host', '/api/auth/login', '/api/posts?per_page=100', ACME_HOST],
    ['subdomain tenancy with the route group in the data path', '/api/hub/auth/login', '/api/hub/posts?per_page=100', HUB_HOST],
  ])('%s: lists and writes in the organization', async (_shape, loginPath, indexPath, host) => {
    const token = await login(loginPath, 'editor@acme.test', host);
    const index = await server.api.get(indexPath, { token, host });
    expect(index.status).toBe(200);
    expect(titles(index.body)).toEqual(expect.arrayContaining(demoPostTitles('acme')));
    expect(titles(index.body).some((title) => title.startsWith('Globex'))).toBe(false);
    const created = await server.api.post(indexPath.replace(/\?.*$/, ''), { token, host, body: { title: `Written via ${indexPath}` } });
    expect(created.status).toBe(201);
    expect(created.body.organization_id).toBe(organizations.acme);
  });

  it('tenant-only operations carry the organization segment in every tenancy, after the group when it is in the data path', async () => {
    const hub = await login('/api/hub/auth/login', 'editor@acme.test', HUB_HOST);
    const organization = await server.api.get('/api/hub/acme/organizations?filter[slug]=acme&include=users', { token: hub, host: HUB_HOST });
    expect(organization).toMatchObject({ status: 200, body: { data: [{ slug: 'acme', users: expect.arrayContaining([expect.objectContaining({ pivot: { role_id: expect.any(Number) } })]) }] } });
    expect(await server.api.get('/api/hub/acme/user-role', { token: hub, host: HUB_HOST })).toMatchObject({ status: 200, body: { role: 'editor' } });
    expect(await server.api.get('/api/hub/globex/user-role', { token: hub, host: HUB_HOST })).toMatchObject({ status: 404, body: { message: 'Organization not found' } });
    const portal = await login('/api/auth/login', 'editor@acme.test', ACME_HOST);
    expect(await server.api.get('/api/acme/roles', { token: portal, host: ACME_HOST })).toMatchObject({ status: 200 });
  });

  it('subdomain tenancy serves only the host’s organization', async () => {
    const token = await login('/api/auth/login', 'editor@acme.test', ACME_HOST);
    expect(await server.api.get(`/api/posts/${globex.post}`, { token, host: ACME_HOST })).toMatchObject({ status: 404, body: { message: 'Resource not found' } });
    expect(await server.api.get('/api/posts', { token, host: 'globex.example.test' })).toMatchObject({ status: 404, body: { message: 'Organization not found' } });
  });

  it('tenancy none (admin): organizations and users across tenants, from users.permissions', async () => {
    const token = await login('/api/admin/auth/login', 'admin@example.test');
    const orgs = await server.api.get('/api/admin/organizations?sort=name', { token });
    expect(orgs.status).toBe(200);
    expect(orgs.body.data.map((organization: { slug: string }) => organization.slug)).toEqual(['acme', 'globex']);
    const users = await server.api.get('/api/admin/users?per_page=100', { token });
    expect(users.body.data.map((user: { email: string }) => user.email).sort()).toEqual(
      ['admin@example.test', ...demoMemberEmails('acme'), ...demoMemberEmails('globex')].sort(),
    );
    expect(await server.api.get(`/api/admin/users/${globex.owner}`, { token })).toMatchObject({ status: 200, body: { email: 'owner@globex.test' } });
  });

  it.each([
    ['admin: no organization to rename without tenancy', 'admin@example.test', 'PUT', () => `/api/admin/organizations/${organizations.acme}`, 403, 'This action is unauthorized.'],
    ['admin: the group does not serve posts', 'admin@example.test', 'GET', () => '/api/admin/posts', 404, 'Unknown model: posts.'],
    ['admin: a tenant owner holds nothing there', 'owner@acme.test', 'GET', () => '/api/admin/users', 403, 'This action is unauthorized.'],
  ])('%s', async (_case, email, method, path, status, message) => {
    const token = await login('/api/admin/auth/login', email);
    const response = await server.api.request(method, path(), { token, body: method === 'PUT' ? { name: 'Renamed' } : undefined });
    expect(response).toMatchObject({ status, body: { message } });
  });

  it('a group without auth resolves the organization but grants anonymous callers nothing', async () => {
    expect(await server.api.get('/api/public/acme/posts')).toMatchObject({ status: 403, body: { message: 'This action is unauthorized.' } });
    expect(await server.api.get('/api/public/nowhere/posts')).toMatchObject({ status: 404, body: { message: 'Organization not found' } });
  });
});

describe('route group membership, when enforced', () => {
  it('answers 403 after authentication and before the organization', async () => {
    const enforcing = await startDataServer({ membershipEnforcement: true });
    try {
      const token = await enforcing.login('viewer@acme.test');
      await enforcing.sql("DELETE FROM user_roles WHERE user_id = (SELECT id FROM users WHERE email = 'viewer@acme.test')");
      const response = await enforcing.api.get('/api/nowhere/posts', { token });
      expect(response).toMatchObject({ status: 403, body: { message: 'You are not a member of this group' } });
      expect((await enforcing.api.get('/api/nowhere/posts')).status).toBe(401);
    } finally {
      await enforcing.close();
    }
  });
});

describe('the slug check beside the groups of npm start', () => {
  it('counts a route group name as taken, though the admin group shares the path of its check', async () => {
    for (const slug of ['admin', 'tenant', 'public', 'auth', 'organizations']) {
      const response = await server.api.get(`/api/${slug}/organizations/exists`, { token: acmeOwner });
      expect([slug, response.status, response.body]).toEqual([slug, 200, { exists: true }]);
      const created = await server.api.post('/api/organizations', { token: acmeOwner, body: { name: 'Shadow', slug } });
      expect([slug, created.status]).toEqual([slug, 422]);
    }
    expect((await server.api.get('/api/admin/organizations/exists')).status).toBe(401);
    const admin = await server.login('admin@example.test', { path: '/api/admin/auth/login' });
    expect((await server.api.get('/api/admin/organizations/exists', { token: admin })).body).toEqual({ exists: true });
  });
});
