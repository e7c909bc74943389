import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { EventEmitter, once } from 'node:events';
import { ResourcePolicy } from '@gatehouse/engine';
import { createGatehouse, GatehouseError, serviceStatus, UnauthenticatedError, type Gatehouse } from '@gatehouse/node';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicPaserk } from '../../server/auth/token-keys.js';
import { startDataServer } from '../server/support/data-server.js';
import type { TestServer } from '../server/support/test-server.js';
import { apiBase, signedToken } from './support.js';

// Issue 36, finding 1: @gatehouse/node gives up on a silent Gatehouse, says why a call failed,
// and fails closed when Gatehouse is down unless the service opts in to its cached answers.

const CHECKS = [{ model: 'posts', action: 'index' }] as const;

describe('a Gatehouse that accepts the connection and never answers', () => {
  let silent: Server;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    silent = createServer((socket) => sockets.add(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    silent.close();
  });

  it('times out authorize and the key fetch with kind `timeout`', async () => {
    const { port } = silent.address() as { port: number };
    const gatehouse = createGatehouse({ baseURL: `http://127.0.0.1:${port}/api`, timeout: { responseMs: 50 } });
    const error = await gatehouse.authorize('v4.public.any', 'acme', CHECKS).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatehouseError);
    expect(error).toMatchObject({ kind: 'timeout', status: undefined });
    expect(serviceStatus(error as GatehouseError)).toBe(503);
    await expect(gatehouse.verifyToken('v4.public.any')).rejects.toMatchObject({ kind: 'timeout' });
    gatehouse.close();
  });
});

describe('a Gatehouse that stops', () => {
  let server: TestServer;
  // The clients' clock, moved on instead of waiting.
  let advanced = 0;
  const clients: Gatehouse[] = [];
  const client = (options: Omit<Parameters<typeof createGatehouse>[0], 'baseURL'>) => {
    const gatehouse = createGatehouse({ baseURL: apiBase(server), now: () => Date.now() + advanced, ...options });
    clients.push(gatehouse);
    return gatehouse;
  };

  beforeAll(async () => {
    server = await startDataServer();
  });

  afterAll(async () => {
    for (const gatehouse of clients) gatehouse.close();
    await server?.close();
  });

  it('is `unavailable`, fails closed by default, and answers from the cache only within its age when asked to', async () => {
    const token = await server.login('editor@acme.test');
    const everyCall = client({});
    const strict = client({ maxAge: 3600 });
    const cached = client({ maxAge: 60, onUnavailable: 'cached' });
    const unchecked = client({});
    for (const gatehouse of [everyCall, strict, cached]) expect((await gatehouse.permissions(token, 'acme')).role).toBe('editor');
    const kept = await cached.permissions(token, 'acme');

    await server.server.close();

    const error = await everyCall.permissions(token, 'acme').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatehouseError);
    expect(error).toMatchObject({ kind: 'unavailable', status: undefined });
    expect((error as Error).message).toMatch(/^Gatehouse cannot be reached/);

    // Once a call has found Gatehouse down, the kept answers stop answering for it...
    await expect(strict.authorize(token, 'acme', CHECKS)).rejects.toMatchObject({ kind: 'unavailable' });
    await expect(strict.permissions(token, 'acme')).rejects.toMatchObject({ kind: 'unavailable' });
    // ...unless the service opted in, and then only while they are younger than maxAge.
    await expect(cached.authorize(token, 'acme', CHECKS)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(await cached.permissions(token, 'acme')).toBe(kept);
    advanced += 60_000;
    await expect(cached.permissions(token, 'acme')).rejects.toMatchObject({ kind: 'unavailable' });

    // Without its keys a middleware cannot check a token: a 503, never let through and never a 500.
    await expect(unchecked.verifyToken(token)).rejects.toMatchObject({ kind: 'unavailable' });
    const app = Fastify();
    app.addHook('onRequest', unchecked.fastify());
    app.get('/me', async () => ({ through: true }));
    const answer = await app.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } });
    expect(answer.statusCode).toBe(503);
    expect(answer.json().message).toMatch(/^Gatehouse cannot be reached/);
    await app.close();
  });
});

describe('a Gatehouse that answers what was not asked', () => {
  let server: HttpServer;
  let answer: (req: IncomingMessage, res: ServerResponse) => void;
  let asked = 0;
  let publicKey: PublicPaserk;
  let token: string;
  const clients: Gatehouse[] = [];
  const client = (options: Omit<Parameters<typeof createGatehouse>[0], 'baseURL'> = {}) => {
    const { port } = server.address() as { port: number };
    const gatehouse = createGatehouse({ baseURL: `http://127.0.0.1:${port}/api`, ...options });
    clients.push(gatehouse);
    return gatehouse;
  };
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const PERMISSIONS = { role: 'editor', permissions: ['posts.index'], abilities: { posts: { index: true } }, rules: [], organization: { id: 1, slug: 'acme' } };
  class InvoicePolicy extends ResourcePolicy<object> {
    static override resourceSlug = 'invoices';
  }

  /** Every public call, each settled as the error it threw (or its value). */
  async function everyCall() {
    const keyed = client({ publicKeys: [publicKey] });
    const fetchingKeys = client();
    const calls = {
      verifyToken: () => fetchingKeys.verifyToken(token),
      authorize: () => keyed.authorize(token, 'acme', CHECKS),
      plans: () => keyed.plans(token, 'acme', [{ model: 'posts', action: 'index' }]),
      permissions: () => keyed.permissions(token, 'acme'),
      policy: () => keyed.policy(token, 'acme', InvoicePolicy),
    };
    const settled: Record<string, unknown> = {};
    for (const [name, call] of Object.entries(calls)) settled[name] = await call().catch((error: unknown) => error);
    return settled;
  }

  beforeAll(async () => {
    ({ publicKey, token } = await signedToken(3_600_000));
    server = createHttpServer((req, res) => {
      asked += 1;
      req.resume().on('end', () => answer(req, res));
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
  });

  afterAll(() => {
    for (const gatehouse of clients) gatehouse.close();
    server.closeAllConnections();
    server.close();
  });

  it.each([301, 302, 307, 204])('throws `unavailable` on a %i instead of reading it as the answer, and follows no redirect', async (status) => {
    asked = 0;
    answer = json(status, status === 204 ? '' : { message: 'Moved' }, { location: 'http://elsewhere.example/api/acme/authorize' });
    for (const [call, error] of Object.entries(await everyCall())) {
      expect(error, call).toBeInstanceOf(GatehouseError);
      expect(error, call).toMatchObject({ kind: 'unavailable', status });
    }
    expect(asked).toBe(5);
    answer = json(302, '', { location: 'http://elsewhere.example/api/acme/authorize' });
    await expect(client({ publicKeys: [publicKey] }).authorize(token, 'acme', CHECKS)).rejects.toThrow('Gatehouse answered 302, a redirect to http://elsewhere.example/api/acme/authorize, which is not followed: is baseURL Gatehouse’s API?');
  });

  it('keeps no redirect as a permissions answer', async () => {
    const cached = client({ publicKeys: [publicKey], maxAge: 60 });
    answer = json(302, '', { location: 'http://elsewhere.example/' });
    await expect(cached.permissions(token, 'acme')).rejects.toMatchObject({ kind: 'unavailable', status: 302 });
    answer = json(200, PERMISSIONS);
    expect(await cached.permissions(token, 'acme')).toEqual(PERMISSIONS);
  });

  it.each([
    ['an empty body', ''],
    ['null', 'null'],
    ['an empty object', {}],
    ['an array', []],
    ['the answer one level down', { data: { results: [{ allowed: true }], plans: [{ model: 'posts', action: 'index', kind: 'always' }], keys: [], ...PERMISSIONS } }],
    ['fields of the wrong types', { results: 'yes', plans: 3, keys: 'k', role: 7, permissions: 'posts.*', abilities: [], rules: {}, organization: 'acme' }],
    ['`allowed` as a string', { results: [{ allowed: 'false' }], plans: [{ model: 'posts', action: 'index', kind: 'sometimes' }], keys: [{ id: 1, key: 'k4.public.AAAA' }], ...PERMISSIONS, permissions: [7] }],
    ['fewer answers than asked', { results: [], plans: [], keys: [{ key: 'k4.public.not-a-key' }], ...PERMISSIONS, organization: { id: '1' } }],
    ['a rule that is no packed rule', { results: [], plans: [], keys: [{ key: 'k4.public.not-a-key' }], ...PERMISSIONS, rules: [7] }],
  ])('throws `unavailable` on a 200 with %s, never a TypeError or the body passed on', async (_what, body) => {
    answer = json(200, body);
    for (const [call, error] of Object.entries(await everyCall())) {
      expect(error, call).toBeInstanceOf(GatehouseError);
      expect(error, call).toMatchObject({ kind: 'unavailable', status: 200 });
      expect((error as Error).message, call).toMatch(/^Gatehouse answered 200 without /);
    }
  });

  it.each([
    ['is malformed', 200, {}],
    ['names a key that is not one', 200, { keys: [{ id: 'any', key: 'k4.public.AAAA' }] }],
    // A proxy asking for credentials, or a baseURL that is not Gatehouse's API: the caller's token is not at fault.
    ['is refused with a 401', 401, { message: 'Unauthenticated.' }],
    ['is refused with a 403', 403, { message: 'Forbidden.' }],
    ['is not found', 404, { message: 'Not found.' }],
  ])('answers 503 from the middleware, and verifyToken throws `unavailable`, when the key list %s', async (_what, status, body) => {
    answer = json(status, body);
    await expect(client().verifyToken(token)).rejects.toMatchObject({ name: 'GatehouseError', kind: 'unavailable', status });
    const middleware = client().express();
    const refused = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const res = Object.assign(new EventEmitter(), { statusCode: 200, setHeader: () => undefined, end: (body: string) => resolve({ status: res.statusCode, body }) });
      middleware({ headers: { authorization: `Bearer ${token}` } }, res, reject);
    });
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body).message).toMatch(new RegExp(`^Gatehouse answered ${status} `));
  });

  it('throws `unavailable` on an answer past 10 MiB instead of holding it all, however large', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"results": [{"allowed": true}], "padding": "');
      for (let mib = 0; mib < 11 && !res.destroyed; mib += 1) res.write(' '.repeat(1024 * 1024));
      res.end('"}');
    };
    const error = await client({ publicKeys: [publicKey] })
      .authorize(token, 'acme', CHECKS)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatehouseError);
    expect(error).toMatchObject({ kind: 'unavailable', status: 200, message: 'Gatehouse answered 200 with more than 10 MiB.' });
  });

  it('throws UnauthenticatedError for a token no header can carry, and still finds Gatehouse reachable', async () => {
    answer = json(200, PERMISSIONS, { etag: '"1"' });
    const cached = client({ publicKeys: [publicKey], maxAge: 60 });
    const kept = await cached.permissions(token, 'acme');
    asked = 0;
    for (const forged of ['v4.public.a\r\nX-Injected: 1', 'v4.public.\u0100']) {
      await expect(cached.authorize(forged, 'acme', CHECKS)).rejects.toBeInstanceOf(UnauthenticatedError);
      await expect(cached.plans(forged, 'acme', [{ model: 'posts', action: 'index' }])).rejects.toBeInstanceOf(UnauthenticatedError);
    }
    expect(asked).toBe(0);
    // Failing closed is for a Gatehouse that is away, not for one caller's bad token.
    expect(await cached.permissions(token, 'acme')).toBe(kept);
  });
});
