import { Agent, get } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envConfig } from '../../../server/cli/env-config.js';
import { readEnvironment } from '../../../server/cli/environment.js';
import { resolveConfig } from '../../../server/config/server-config.js';
import { MAX_QUERY_PARAMETERS } from '../../../server/models/request-limits.js';
import { rawRequest } from '../support/raw-request.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
const logLines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  server = await startTestServer({ logger: pino({ level: 'info' }, sink), bodyLimit: '1kb' });
});

afterAll(() => server.close());

describe('the HTTP pipeline', () => {
  it('answers GET /api/health', async () => {
    const response = await server.api.get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('answers unknown routes with a JSON 404', async () => {
    for (const path of ['/api/nothing-here', '/nope', '/api/acme']) {
      const response = await server.api.get(path);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'Route not found.' });
    }
  });

  it('answers malformed JSON with 400', async () => {
    const response = await server.api.post('/api/auth/login', { rawBody: '{"email": "owner@acme.test",' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'Malformed JSON in the request body.' });
  });

  it('answers well-formed JSON holding a prototype key with 400 naming the key, not as malformed JSON', async () => {
    for (const rawBody of ['{"email":"owner@acme.test","__proto__":{"admin":true}}', '[{"__proto__":{}}]']) {
      const response = await server.api.post('/api/auth/login', { rawBody });
      expect({ rawBody, status: response.status, body: response.body }).toEqual({ rawBody, status: 400, body: { message: 'The request body must not hold a __proto__ key.' } });
    }
  });

  it('answers a JSON body that is not an object with 400 at every endpoint, not as malformed JSON nor as a field error', async () => {
    const token = await server.login('owner@acme.test');
    const notAnObject = { message: 'The request body must be a JSON object.' };
    for (const rawBody of ['null', '42', '"text"', 'true', '[]', '[{"email":"owner@acme.test"}]']) {
      for (const path of ['/api/auth/login', '/api/auth/password/recover', '/api/invitations/accept', '/api/organizations']) {
        const response = await server.api.post(path, { rawBody, token });
        expect({ path, rawBody, status: response.status, body: response.body }).toEqual({ path, rawBody, status: 400, body: notAnObject });
      }
    }
  });

  it('names a missing password confirmation as required', async () => {
    const response = await server.api.post('/api/auth/password/reset', { body: { token: 't', email: 'owner@acme.test', password: 'password123!' } });
    expect(response.status).toBe(422);
    expect(response.body.errors.password_confirmation).toEqual(['The password confirmation field is required.']);
  });

  it('answers a body that is not JSON with 415 and stores nothing', async () => {
    const token = await server.login('owner@acme.test');
    const unsupported = { message: 'Request bodies must be JSON, sent with Content-Type: application/json.' };
    for (const type of ['text/plain;charset=UTF-8', 'application/xml']) {
      const response = await server.api.post('/api/acme/posts', { token, rawBody: '{"title":"sent as text"}', headers: { 'content-type': type } });
      expect(response.status).toBe(415);
      expect(response.body).toEqual(unsupported);
    }
    const untyped = await server.api.post('/api/auth/login', { rawBody: '{"email":"owner@acme.test"}', headers: { 'content-type': '' } });
    expect(untyped.status).toBe(415);
    expect(await server.sql("SELECT id FROM posts WHERE title = 'sent as text'")).toEqual([]);
  });

  it('answers a JSON body in any charset but UTF-8 with 415 and stores nothing', async () => {
    const token = await server.login('owner@acme.test');
    const utf16 = Buffer.from('{"title":"sent as utf-16"}', 'utf16le').toString('latin1');
    for (const [charset, rawBody] of [['utf-16', utf16], ['bogus', '{"title":"sent as bogus"}'], ['ISO-8859-1', '{"title":"sent as latin-1"}']] as const) {
      const response = await server.api.post('/api/acme/posts', { token, rawBody, headers: { 'content-type': `application/json; charset=${charset}` } });
      expect(response.status, charset).toBe(415);
      expect(response.body).toEqual({ message: `JSON request bodies must be UTF-8, not charset=${charset}.` });
    }
    expect(await server.sql("SELECT id FROM posts WHERE title LIKE 'sent as %'")).toEqual([]);
    for (const charset of ['utf-8', 'UTF-8', 'utf8']) {
      const response = await server.api.post('/api/auth/login', { body: { email: 'owner@acme.test', password: DEMO_PASSWORD }, headers: { 'content-type': `application/json; charset=${charset}` } });
      expect(response.status, charset).toBe(200);
    }
  });

  it('answers requests Node itself would refuse with a JSON message', async () => {
    const noHost = await rawRequest(server.api.baseUrl, 'GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(noHost.status).toBe(400);
    expect(noHost.head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(noHost.body)).toEqual({ message: 'The request must carry a Host header.' });

    const badLine = await rawRequest(server.api.baseUrl, 'GET /api/health NOT-HTTP\r\nHost: localhost\r\n\r\n');
    expect(badLine.status).toBe(400);
    expect(JSON.parse(badLine.body)).toEqual({ message: 'The request is malformed.' });

    const unknownExpectation = await rawRequest(server.api.baseUrl, 'GET /api/health HTTP/1.1\r\nHost: localhost\r\nExpect: nonsense\r\nConnection: close\r\n\r\n');
    expect(unknownExpectation.status).toBe(417);
    expect(unknownExpectation.head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(unknownExpectation.body)).toEqual({ message: 'The only expectation the server meets is Expect: 100-continue.' });

    const http10 = await rawRequest(server.api.baseUrl, 'GET /api/health HTTP/1.0\r\n\r\n');
    expect(http10.status).toBe(200);
    expect(JSON.parse(http10.body)).toEqual({ status: 'ok' });
  });

  it('takes bodiless requests of any content type', async () => {
    const token = await server.login('owner@acme.test');
    const emptyTyped = await server.api.post('/api/auth/logout', { token, headers: { 'content-type': 'text/plain', 'content-length': '0' } });
    expect(emptyTyped.status).toBe(200);
    // Its parser took an empty body for a malformed one.
    for (const framing of [{ 'content-length': '0' }, { 'transfer-encoding': 'chunked' }] as Record<string, string>[]) {
      const emptyMultipart = await server.api.post('/api/auth/login', { headers: { 'content-type': 'multipart/form-data; boundary=b', ...framing } });
      expect(emptyMultipart).toMatchObject({ status: 422, body: { errors: { email: ['The email field is required.'] } } });
    }
    const vendorJson = await server.api.post('/api/auth/login', {
      rawBody: JSON.stringify({ email: 'owner@acme.test', password: 'password123!' }),
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    expect(vendorJson.status).toBe(200);
  });

  it('answers a chunked POST whose body is empty and untyped as the same POST without a body, and keeps the 415 for an untyped chunked body', async () => {
    const token = await server.login('owner@acme.test');
    const chunked = (path: string, chunks: string, headers = '') =>
      rawRequest(server.api.baseUrl, `POST ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunks}0\r\n\r\n`);
    const logout = await chunked('/api/auth/logout', '', `Authorization: Bearer ${token}\r\n`);
    expect([logout.status, JSON.parse(logout.body)]).toEqual([200, { message: 'Logged out.' }]);
    expect((await server.api.post('/api/auth/logout', { token })).status).toBe(401);
    const overridden = await chunked('/api/health', '', 'X-HTTP-Method-Override: GET\r\n');
    expect([overridden.status, JSON.parse(overridden.body)]).toEqual([400, { message: 'The method override must be one of: PUT, PATCH, DELETE.' }]);
    const untyped = await chunked('/api/auth/login', '1b\r\n{"email":"owner@acme.test"}\r\n');
    expect([untyped.status, JSON.parse(untyped.body)]).toEqual([415, { message: 'Request bodies must be JSON, sent with Content-Type: application/json.' }]);
  });

  it('checks the input of a GET alike with and without a body', async () => {
    // Node's client frames a GET's body only when told its length.
    const withBody = (rawBody: string, type = 'application/json') => ({ rawBody, headers: { 'content-type': type, 'content-length': String(Buffer.byteLength(rawBody)) } });
    const nul = { message: 'The request must not contain NUL characters (\\u0000).' };
    const inQuery = await server.api.get('/api/health?note=%00');
    expect([inQuery.status, inQuery.body]).toEqual([400, nul]);
    const inBody = await server.api.get('/api/health', withBody('{"note":"a\\u0000b"}'));
    expect([inBody.status, inBody.body]).toEqual([400, nul]);
    const textBody = await server.api.get('/api/health', withBody('note', 'text/plain'));
    expect(textBody.status).toBe(415);
    const encodedNothing = await server.api.get('/api/health', { headers: { 'content-type': 'application/json', 'content-encoding': 'br-nope' } });
    expect(encodedNothing.status).toBe(400);
    const jsonBody = await server.api.get('/api/health', withBody('{"note":"ignored"}'));
    expect([jsonBody.status, jsonBody.body]).toEqual([200, { status: 'ok' }]);
  });

  it('refuses a query of more parts than the limit, and reads one of as many', async () => {
    const query = (parts: number) => Array.from({ length: parts }, (_, index) => `k${index}=1`).join('&');
    const atLimit = await server.api.get(`/api/health?${query(MAX_QUERY_PARAMETERS)}`);
    expect([atLimit.status, atLimit.body]).toEqual([200, { status: 'ok' }]);
    const pastLimit = await server.api.get(`/api/health?${query(MAX_QUERY_PARAMETERS + 1)}`);
    expect([pastLimit.status, pastLimit.body]).toEqual([400, { message: `Too many query parameters: at most ${MAX_QUERY_PARAMETERS}.` }]);
  });

  it('applies the method override of a POST without a body', async () => {
    const response = await server.api.post('/api/health', { headers: { 'x-http-method-override': 'GET' } });
    expect([response.status, response.body]).toEqual([400, { message: 'The method override must be one of: PUT, PATCH, DELETE.' }]);
  });

  it('answers a body over the limit with 413', async () => {
    const response = await server.api.post('/api/auth/login', { body: { email: 'owner@acme.test', password: 'x'.repeat(2048) } });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: 'The request body is too large.' });
  });

  it('ends a request whose client leaves mid-body, a multipart one as a JSON one', async () => {
    // A multipart body never ended once its client had gone: its request ran on for no one, its
    // parser and fields held, and without a line in the log; a guest could leave any number of them.
    const leave = (id: string, type: string, part: string) =>
      new Promise<void>((resolve, reject) => {
        const { hostname, port } = new URL(server.api.baseUrl);
        const head = `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: ${id}\r\nContent-Type: ${type}\r\nContent-Length: 900\r\nExpect: 100-continue\r\n\r\n`;
        const socket = connect(Number(port), hostname, () => socket.write(head));
        socket.once('data', () => socket.end(part, () => socket.destroy()));
        socket.on('error', reject).on('close', () => resolve());
      });
    const ended = (id: string) => logLines.map((line) => JSON.parse(line)).find((line) => line.requestId === id)?.status;
    await leave('left-multipart', 'multipart/form-data; boundary=b', '--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nowner@');
    await leave('left-json', 'application/json', '{"email":"owner@');
    await expect.poll(() => [ended('left-multipart'), ended('left-json')]).toEqual([400, 400]);
  });

  // The parser stopped reading at the limit and left the rest unread: the connection then answered
  // nothing more, so a proxy's pooled connection hung the next request, another caller's perhaps.
  it('answers the next request on a connection after refusing a streamed body over the limit', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const streamed = `${chunk.length.toString(16)}\r\n${chunk}\r\n`.repeat(4) + '0\r\n\r\n';
    const response = await rawRequest(
      server.api.baseUrl,
      `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${streamed}` +
        'GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expect(response.status).toBe(413);
    // The second answer follows the first's body; rawRequest splits off the first head only.
    expect(response.body).toMatch(/^\{"message":"The request body is too large\."\}HTTP\/1\.1 200 OK\r\n/);
  });

  // `bytes` reads 'lots' as nothing, and the body parser took nothing as no limit at all.
  it('refuses at start a body limit that is not a size, rather than serve without one', () => {
    const bodyLimit = (value: string) => resolveConfig(envConfig(readEnvironment({ GATEHOUSE_BODY_LIMIT: value }), 'postgres://unused', server.secretKey)).bodyLimit;
    expect(bodyLimit('1.5 MB')).toBe('1.5 MB');
    for (const value of ['lots', '1e6', '-1kb', '0']) expect(() => bodyLimit(value)).toThrow('bodyLimit must be a size such as 100kb or 1mb');
  });

  it('tags every answer with a request id, keeping a well-formed one the caller sent', async () => {
    const generated = await server.api.get('/api/health');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await server.api.get('/api/health', { headers: { 'x-request-id': 'trace-123' } });
    expect(kept.headers['x-request-id']).toBe('trace-123');
    const replaced = await server.api.get('/api/health', { headers: { 'x-request-id': 'bad id\twith tab' } });
    expect(replaced.headers['x-request-id']).not.toContain('bad');
  });

  it('logs one structured line per request without tokens or passwords', async () => {
    const login = await server.api.post('/api/auth/login', {
      body: { email: 'owner@acme.test', password: DEMO_PASSWORD },
      headers: { 'x-request-id': 'login-log-check' },
    });
    const token = login.body.token as string;
    await server.api.get('/api/acme/roles?include=secret', { token, headers: { 'x-request-id': 'roles-log-check' } });

    const lines = logLines.map((line) => JSON.parse(line));
    const loginLine = lines.find((line) => line.requestId === 'login-log-check');
    expect(loginLine).toMatchObject({ msg: 'request', method: 'POST', path: '/api/auth/login', status: 200 });
    const rolesLine = lines.find((line) => line.requestId === 'roles-log-check');
    expect(rolesLine).toMatchObject({ path: '/api/acme/roles', routeGroup: 'tenant', organization: 'acme', userId: expect.any(Number) });
    const everything = logLines.join('\n');
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(token.slice(10, 60));
    expect(everything).not.toContain(DEMO_PASSWORD);
  });
});

describe('keep-alive', () => {
  /** The Keep-Alive header of an answer on a connection the client offers to keep. */
  const keepAliveHeader = (url: string) =>
    new Promise<string | undefined>((resolve, reject) => {
      const agent = new Agent({ keepAlive: true });
      get(url, { agent }, (response) => {
        response.resume();
        response.on('end', () => (agent.destroy(), resolve(response.headers['keep-alive'] as string | undefined)));
      }).on('error', reject);
    });
  const timeouts = (env: NodeJS.ProcessEnv) => {
    const { keepAliveTimeoutSeconds, headersTimeoutSeconds, bodyTimeoutSeconds } = resolveConfig(envConfig(readEnvironment(env), 'postgres://unused', server.secretKey));
    return { keepAliveTimeoutSeconds, headersTimeoutSeconds, bodyTimeoutSeconds };
  };

  it('keeps an idle connection 65 s by default, longer than a load balancer idles one (60 s)', async () => {
    expect(await keepAliveHeader(`${server.api.baseUrl}/api/health`)).toBe('timeout=65');
  });

  it('takes the timeouts from the environment, the headers one above the keep-alive one, the body one as long as the headers one', () => {
    expect(timeouts({})).toEqual({ keepAliveTimeoutSeconds: 65, headersTimeoutSeconds: 66, bodyTimeoutSeconds: 66 });
    expect(timeouts({ GATEHOUSE_KEEP_ALIVE_TIMEOUT: '350' })).toEqual({ keepAliveTimeoutSeconds: 350, headersTimeoutSeconds: 351, bodyTimeoutSeconds: 351 });
    expect(timeouts({ GATEHOUSE_KEEP_ALIVE_TIMEOUT: '120', GATEHOUSE_HEADERS_TIMEOUT: '130', GATEHOUSE_BODY_TIMEOUT: '300' })).toEqual({
      keepAliveTimeoutSeconds: 120,
      headersTimeoutSeconds: 130,
      bodyTimeoutSeconds: 300,
    });
    expect(() => timeouts({ GATEHOUSE_KEEP_ALIVE_TIMEOUT: '120', GATEHOUSE_HEADERS_TIMEOUT: '60' })).toThrow('headersTimeoutSeconds must be above keepAliveTimeoutSeconds.');
    expect(() => timeouts({ GATEHOUSE_KEEP_ALIVE_TIMEOUT: 'long' })).toThrow('GATEHOUSE_KEEP_ALIVE_TIMEOUT must be a whole number');
    // Node times an idle connection for the keep-alive timeout and a second more: a longer one it
    // cut short to 24.8 days, with a warning on every connection.
    expect(timeouts({ GATEHOUSE_KEEP_ALIVE_TIMEOUT: '2147482' }).keepAliveTimeoutSeconds).toBe(2_147_482);
    expect(() => timeouts({ GATEHOUSE_KEEP_ALIVE_TIMEOUT: '2147483' })).toThrow('keepAliveTimeoutSeconds must be at most 2147482 seconds, the longest Node times an idle connection.');
  });
});
