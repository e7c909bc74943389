import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  // The editor is also a member of acme in the domain group.
  await server.sql(`INSERT INTO user_roles (user_id, organization_id, role_id, route_group)
    SELECT u.id, o.id, r.id, 'portal' FROM users u, organizations o, roles r
    WHERE u.email = 'editor@acme.test' AND o.slug = 'acme' AND r.slug = 'editor'`);
});

afterAll(() => server.close());

const ACME_HOST = 'acme.example.test';

describe('prefix group with path tenancy (tenant, the default)', () => {
  it('serves data routes under /{organization} and, with the group in the data path, /{group}/{organization}', async () => {
    const token = await server.login('viewer@acme.test');
    for (const path of ['/api/acme/probe', '/api/tenant/acme/probe']) {
      const response = await server.api.get(path, { token });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        group: 'tenant',
        organization: 'acme',
        user: 'viewer@acme.test',
        role: 'viewer',
        permissions: ['comments.index', 'comments.store', 'posts.index', 'posts.show'],
        inTransaction: true,
      });
    }
  });

  it('answers 404 Organization not found for another tenant or a missing organization', async () => {
    const token = await server.login('viewer@acme.test');
    for (const path of ['/api/globex/probe', '/api/nowhere/probe', '/api/globex/organizations', '/api/Not_A_Slug/roles']) {
      const response = await server.api.get(path, { token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'Organization not found' });
    }
  });
});

describe('prefix group without tenancy (admin)', () => {
  it('has its own auth routes and takes permissions from users.permissions', async () => {
    const login = await server.api.post('/api/admin/auth/login', { body: { email: 'admin@example.test', password: DEMO_PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ route_group: 'admin', organization: null, organization_slug: null });

    const role = await server.api.get('/api/admin/user-role', { token: login.body.token });
    expect(role.body).toMatchObject({ role: null, permissions: ['*'] });
    const probe = await server.api.get('/api/admin/probe', { token: login.body.token });
    expect(probe.body).toMatchObject({ group: 'admin', organization: null, permissions: ['*'] });
  });

  it('gives a tenant member nothing there: their role permissions live in organizations', async () => {
    const token = await server.login('owner@acme.test', { path: '/api/admin/auth/login' });
    const role = await server.api.get('/api/admin/user-role', { token });
    expect(role.body).toEqual({ role: null, permissions: [], rules: [], abilities: {}, organization: null });
  });
});

describe('domain group with subdomain tenancy (portal on {organization}.example.test)', () => {
  it('serves the plain /auth routes on the tenant host and lands in the host’s organization', async () => {
    const login = await server.api.post('/api/auth/login', { host: ACME_HOST, body: { email: 'editor@acme.test', password: DEMO_PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ organization_slug: 'acme', route_group: null });

    const probe = await server.api.get('/api/probe', { host: ACME_HOST, token: login.body.token });
    expect(probe.body).toMatchObject({ group: 'portal', organization: 'acme', role: 'editor' });
    const organizations = await server.api.get('/api/acme/organizations', { host: ACME_HOST, token: login.body.token });
    expect(organizations.body.data).toEqual([{ id: expect.any(Number), name: 'Acme Corporation', slug: 'acme' }]);
  });

  it('answers 404 when the path names another organization than the host, or the host one the user is not in', async () => {
    const token = await server.login('editor@acme.test', { host: ACME_HOST });
    expect((await server.api.get('/api/globex/organizations', { host: ACME_HOST, token })).status).toBe(404);
    expect((await server.api.get('/api/probe', { host: 'globex.example.test', token })).status).toBe(404);
    const login = await server.api.post('/api/auth/login', { host: 'globex.example.test', body: { email: 'editor@acme.test', password: DEMO_PASSWORD } });
    expect(login.status).toBe(404);
  });

  it('keeps its sessions apart from the main host’s groups', async () => {
    const portalToken = await server.login('editor@acme.test', { host: ACME_HOST });
    expect((await server.api.get('/api/acme/roles', { token: portalToken })).status).toBe(403);
    const tenantToken = await server.login('editor@acme.test');
    expect((await server.api.get('/api/probe', { host: ACME_HOST, token: tenantToken })).status).toBe(403);
  });

  it('does not let in a member of the organization in another group', async () => {
    const login = await server.api.post('/api/auth/login', { host: ACME_HOST, body: { email: 'viewer@acme.test', password: DEMO_PASSWORD } });
    expect(login.status).toBe(404);
    expect(login.body).toEqual({ message: 'Organization not found' });
  });
});

describe('group without auth (public)', () => {
  it('resolves the organization for anonymous callers, who hold no permissions', async () => {
    const probe = await server.api.get('/api/public/acme/probe');
    expect(probe.body).toEqual({ group: 'public', organization: 'acme', user: null, role: null, permissions: [], inTransaction: true });
    expect((await server.api.get('/api/public/nowhere/probe')).status).toBe(404);
  });

  it('serves no auth routes', async () => {
    expect((await server.api.post('/api/public/auth/login', { body: { email: 'owner@acme.test', password: DEMO_PASSWORD } })).status).toBe(404);
  });
});
