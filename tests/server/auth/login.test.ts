import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ loginThrottle: { maxAttempts: 3, decaySeconds: 600 } });
});

afterAll(() => server.close());

const credentials = (email: string, password = DEMO_PASSWORD) => ({ body: { email, password } });

describe('POST /api/auth/login', () => {
  it('starts a session and answers token, user and default organization', async () => {
    const response = await server.api.post('/api/auth/login', credentials('editor@acme.test'));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      user: { name: 'Eddie Editor', email: 'editor@acme.test' },
      organization: { slug: 'acme', name: 'Acme Corporation' },
      organization_slug: 'acme',
      route_group: null,
    });
    expect(response.body.token).toMatch(/^v4\.public\./);
    expect(response.body.user).not.toHaveProperty('password_hash');

    const roles = await server.api.get('/api/acme/roles', { token: response.body.token });
    expect(roles.status).toBe(200);
  });

  it('echoes the group when the login URL names it', async () => {
    const response = await server.api.post('/api/tenant/auth/login', credentials('viewer@acme.test'));
    expect(response.status).toBe(200);
    expect(response.body.route_group).toBe('tenant');
  });

  it('matches the email case-insensitively', async () => {
    const response = await server.api.post('/api/auth/login', credentials('Viewer@ACME.test'));
    expect(response.status).toBe(200);
  });

  it('answers 401 Invalid credentials for a wrong password and an unknown email alike', async () => {
    const wrongPassword = await server.api.post('/api/auth/login', credentials('owner@acme.test', 'not-the-password'));
    const unknownEmail = await server.api.post('/api/auth/login', credentials('nobody@acme.test'));
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: 'Invalid credentials' });
    }
  });

  it('tells the login 401 from the 401 of any other request', async () => {
    const elsewhere = await server.api.get('/api/acme/roles');
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body).toEqual({ message: 'Unauthenticated.' });
    expect(elsewhere.headers['www-authenticate']).toBe('Bearer');
  });

  it('answers 422 with field errors for missing or malformed fields', async () => {
    const response = await server.api.post('/api/auth/login', { body: { email: 'not-an-email' } });
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('The given data was invalid.');
    expect(response.body.errors).toEqual({
      email: ['The email field must be a valid email address.'],
      password: ['The password field is required.'],
    });
  });

  it('answers 422 for fields of the wrong type and 400 for a body that is not an object, never 500', async () => {
    const wrongTypes = await server.api.post('/api/auth/login', { body: { email: 42, password: ['x'] } });
    expect(wrongTypes.status).toBe(422);
    expect(Object.keys(wrongTypes.body.errors)).toEqual(['email', 'password']);
    const array = await server.api.post('/api/auth/login', { body: [1, 2] });
    expect(array).toMatchObject({ status: 400, body: { message: 'The request body must be a JSON object.' } });
  });

  it('refuses further attempts for an email and address after repeated failures, even the right password', async () => {
    const email = 'owner@globex.test';
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await server.api.post('/api/auth/login', credentials(email, 'wrong'))).status).toBe(401);
    }
    const blocked = await server.api.post('/api/auth/login', credentials(email));
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/^Too many login attempts\. Please try again in \d+ seconds\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

    const otherEmail = await server.api.post('/api/auth/login', credentials('owner@acme.test'));
    expect(otherEmail.status).toBe(200);
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the session so the token stops working', async () => {
    const token = await server.login('viewer@acme.test');
    const logout = await server.api.post('/api/auth/logout', { token });
    expect(logout.status).toBe(200);
    expect(logout.body).toEqual({ message: 'Logged out.' });
    expect((await server.api.get('/api/acme/roles', { token })).status).toBe(401);
    expect((await server.api.post('/api/auth/logout', { token })).status).toBe(401);
  });

  it('under a group’s auth routes revokes that group’s session, and refuses another group’s', async () => {
    const admin = await server.login('admin@example.test', { path: '/api/admin/auth/login' });
    const tenant = await server.login('viewer@acme.test');
    expect((await server.api.post('/api/admin/auth/logout', { token: tenant })).status).toBe(403);
    expect((await server.api.get('/api/acme/roles', { token: tenant })).status).toBe(200);
    expect(await server.api.post('/api/admin/auth/logout', { token: admin })).toMatchObject({ status: 200, body: { message: 'Logged out.' } });
    expect((await server.api.get('/api/admin/user-role', { token: admin })).status).toBe(401);
  });

  it('leaves the user’s other sessions alone', async () => {
    const first = await server.login('editor@acme.test');
    const second = await server.login('editor@acme.test');
    await server.api.post('/api/auth/logout', { token: first });
    expect((await server.api.get('/api/acme/roles', { token: second })).status).toBe(200);
  });
});
