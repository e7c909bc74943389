import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ membershipEnforcement: true });
});

afterAll(() => server.close());

const DENIED = { message: 'You are not a member of this group', reason: { gate: 'route_group' } };

const login = (email: string, path: string) => server.api.post(path, { body: { email, password: DEMO_PASSWORD } });

describe('route group membership enforcement', () => {
  it('answers 403 on login to a group the user has no membership in', async () => {
    const tenantUserAtAdmin = await login('editor@acme.test', '/api/admin/auth/login');
    expect(tenantUserAtAdmin.status).toBe(403);
    expect(tenantUserAtAdmin.body).toEqual(DENIED);
    const adminAtTenant = await login('admin@example.test', '/api/auth/login');
    expect(adminAtTenant.status).toBe(403);
  });

  it('still answers 401, not 403, for wrong credentials', async () => {
    const response = await server.api.post('/api/admin/auth/login', { body: { email: 'editor@acme.test', password: 'wrong password' } });
    expect(response.status).toBe(401);
  });

  it('lets members in', async () => {
    expect((await login('admin@example.test', '/api/admin/auth/login')).status).toBe(200);
    expect((await login('viewer@acme.test', '/api/auth/login')).status).toBe(200);
  });

  it('answers 403 on every request once the membership is gone, and the token stays valid', async () => {
    const token = await server.login('owner@globex.test');
    expect((await server.api.get('/api/globex/roles', { token })).status).toBe(200);

    await server.sql("DELETE FROM user_roles WHERE user_id = (SELECT id FROM users WHERE email = 'owner@globex.test')");
    // Membership is checked before the organization: a missing one is a 403 too, not a 404.
    for (const path of ['/api/globex/roles', '/api/globex/organizations', '/api/globex/probe', '/api/globex/organizations/exists', '/api/nowhere/roles']) {
      const response = await server.api.get(path, { token });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(DENIED);
    }
    expect((await server.api.post('/api/organizations', { token, body: { name: 'Nope', slug: 'nope' } })).status).toBe(403);

    const logout = await server.api.post('/api/auth/logout', { token });
    expect(logout.status).toBe(200);
  });

  it('checks authentication first', async () => {
    expect((await server.api.get('/api/nowhere/roles')).status).toBe(401);
  });

  it('applies to a non-tenant group as well', async () => {
    const adminToken = (await login('admin@example.test', '/api/admin/auth/login')).body.token;
    const response = await server.api.get('/api/admin/user-role', { token: adminToken });
    expect(response.status).toBe(200);
    // Restored afterwards: the admin still logs in for the other tests.
    const removed = await server.sql("DELETE FROM user_roles WHERE route_group = 'admin' RETURNING *");
    try {
      expect((await server.api.get('/api/admin/user-role', { token: adminToken })).status).toBe(403);
    } finally {
      await server.sql('INSERT INTO user_roles OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(null::user_roles, $1)', [JSON.stringify(removed)]);
    }
  });
});
