import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../server/errors/config-error.js';
import { envConfig } from '../../../server/cli/env-config.js';
import { readEnvironment } from '../../../server/cli/environment.js';
import { createServer } from '../../../server/create-server.js';
import { send } from '../support/http-client.js';
import { startTestServer, TEST_ROUTE_GROUPS, type TestServer } from '../support/test-server.js';

const APP = 'https://app.example.test';
const preflight = (origin: string, method = 'PUT') => ({
  headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
});

let open: TestServer;
let listed: TestServer;
let withCredentials: TestServer;

beforeAll(async () => {
  [open, listed, withCredentials] = await Promise.all([
    startTestServer(),
    startTestServer({ corsOrigins: [APP, 'http://localhost:5173'] }),
    startTestServer({ cors: { origins: [APP], credentials: true } }),
  ]);
});

afterAll(() => Promise.all([open.close(), listed.close(), withCredentials.close()]));

describe('CORS with the default configuration (any origin)', () => {
  it('answers a preflight with 204 before authentication, allowing the bearer header but no credentials', async () => {
    const response = await send(open.api.baseUrl, 'OPTIONS', '/api/acme/posts/1', preflight('https://anywhere.test'));
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
      'access-control-allow-headers': 'Authorization, Content-Type, Accept, X-Request-Id, X-Requested-With, X-HTTP-Method-Override, Prefer',
    });
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('exposes the pagination headers and the request id on answers, errors included', async () => {
    for (const [path, status] of [['/api/health', 200], ['/api/acme/roles', 401], ['/api/nothing-here', 404]] as const) {
      const response = await open.api.get(path, { headers: { origin: 'https://anywhere.test' } });
      expect(response.status).toBe(status);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-expose-headers']).toBe('X-Current-Page, X-Last-Page, X-Per-Page, X-Total, X-Total-Estimated, X-Next-Cursor, Preference-Applied, X-Request-Id');
    }
  });

  it('adds nothing to a request that comes from no browser page', async () => {
    const response = await open.api.get('/api/health');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['access-control-expose-headers']).toBeUndefined();
    // A shared cache must not hand this answer to a page whose Origin would have been allowed.
    expect(response.headers.vary).toBe('Origin');
  });
});

describe('CORS with a list of origins', () => {
  it('names a listed origin and varies on it', async () => {
    const answer = await listed.api.get('/api/health', { headers: { origin: APP } });
    expect(answer.headers['access-control-allow-origin']).toBe(APP);
    expect(answer.headers.vary).toMatch(/\bOrigin\b/);
    const preflightAnswer = await send(listed.api.baseUrl, 'OPTIONS', '/api/auth/login', preflight('http://localhost:5173', 'POST'));
    expect(preflightAnswer.status).toBe(204);
    expect(preflightAnswer.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });

  it('gives another origin no permission, so its browser refuses the request', async () => {
    const refused = await send(listed.api.baseUrl, 'OPTIONS', '/api/acme/roles', preflight('https://evil.test'));
    expect(refused.status).toBe(204);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.headers['access-control-allow-methods']).toBeUndefined();
    expect(refused.headers.vary).toMatch(/\bOrigin\b/);

    const answer = await listed.api.get('/api/health', { headers: { origin: 'https://evil.test' } });
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers['access-control-expose-headers']).toBeUndefined();
  });
});

describe('CORS for Rhino clients', () => {
  it('allows the X-Requested-With header Rhino clients send on every request', async () => {
    const response = await send(open.api.baseUrl, 'OPTIONS', '/api/acme/posts', {
      headers: { origin: APP, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, x-requested-with' },
    });
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-headers']?.split(', ')).toEqual(expect.arrayContaining(['Authorization', 'X-Requested-With']));
  });

  it('with credentials, echoes a listed origin, allows credentials and varies on the origin, errors included', async () => {
    const preflightAnswer = await send(withCredentials.api.baseUrl, 'OPTIONS', '/api/acme/posts', preflight(APP));
    expect(preflightAnswer.status).toBe(204);
    expect(preflightAnswer.headers).toMatchObject({ 'access-control-allow-origin': APP, 'access-control-allow-credentials': 'true' });
    expect(preflightAnswer.headers.vary).toMatch(/\bOrigin\b/);
    for (const [path, status] of [['/api/health', 200], ['/api/acme/roles', 401]] as const) {
      const answer = await withCredentials.api.get(path, { headers: { origin: APP } });
      expect(answer.status).toBe(status);
      expect(answer.headers).toMatchObject({ 'access-control-allow-origin': APP, 'access-control-allow-credentials': 'true' });
      expect(answer.headers.vary).toMatch(/\bOrigin\b/);
    }
  });

  it('with credentials, gives an unlisted origin nothing', async () => {
    const refused = await send(withCredentials.api.baseUrl, 'OPTIONS', '/api/acme/posts', preflight('https://evil.test'));
    expect(refused.status).toBe(204);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.headers['access-control-allow-credentials']).toBeUndefined();
    const answer = await withCredentials.api.get('/api/health', { headers: { origin: 'https://evil.test' } });
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
  });
});

describe('CORS configuration', () => {
  it('refuses credentials with any origin at start-up: never * with credentials', async () => {
    const config = { database: { connectionString: 'postgres://unused' }, tokens: { secretKey: open.secretKey }, routeGroups: TEST_ROUTE_GROUPS };
    await expect(createServer({ ...config, cors: { credentials: true } })).rejects.toThrow('cors.credentials needs listed origins, not *.');
    await expect(createServer({ ...config, cors: { origins: ['*'], credentials: true } })).rejects.toThrow(ConfigError);
    await expect(createServer({ ...config, cors: { origins: [APP] }, corsOrigins: [APP] })).rejects.toThrow('Configure either cors.origins or corsOrigins, not both.');
  });

  it('reads GATEHOUSE_CORS_CREDENTIALS as a flag', () => {
    const credentials = (value?: string) => envConfig(readEnvironment({ GATEHOUSE_CORS_CREDENTIALS: value }), 'postgres://unused', open.secretKey).cors?.credentials;
    expect(credentials('true')).toBe(true);
    expect(credentials(undefined)).toBe(false);
  });

  it.each(['https://app.example.test/', 'https://App.example.test', 'app.example.test', 'https://app.example.test/path'])(
    'refuses %s at start-up: browsers would never send it',
    async (origin) => {
      const config = { database: { connectionString: 'postgres://unused' }, tokens: { secretKey: open.secretKey }, routeGroups: TEST_ROUTE_GROUPS };
      await expect(createServer({ ...config, corsOrigins: [origin] })).rejects.toThrow(ConfigError);
    },
  );

  it('reads GATEHOUSE_CORS_ORIGINS as a comma-separated list; unset or blank leaves the default', () => {
    const origins = (value?: string) => envConfig(readEnvironment({ GATEHOUSE_CORS_ORIGINS: value }), 'postgres://unused', open.secretKey).corsOrigins;
    expect(origins(`${APP}, http://localhost:5173`)).toEqual([APP, 'http://localhost:5173']);
    expect(origins(undefined)).toBeUndefined();
    expect(origins(' ')).toBeUndefined();
  });
});
