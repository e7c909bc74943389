import { once } from 'node:events';
import { createGatehouse, UnauthenticatedError } from '@gatehouse/node';
import express from 'express';
import Fastify from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoData } from '../../policies/demo-data.js';
import { DEMO_ROLES } from '../../policies/seed.js';
import { generateTokenKeyPair } from '../../server/auth/token-keys.js';
import { envConfig } from '../../server/cli/env-config.js';
import { readEnvironment } from '../../server/cli/environment.js';
import { createServer, type GatehouseServer } from '../../server/create-server.js';
import { runCli } from '../../harness/cli.js';
import { DATA_ROUTE_GROUPS, startDataServer } from '../server/support/data-server.js';
import { Api } from '../server/support/http-client.js';
import { startTcpProxy, type TcpProxy } from '../server/support/tcp-proxy.js';
import type { TestServer } from '../server/support/test-server.js';
import { tokenClaims } from '../server/support/token-claims.js';
import { asServiceLogin } from '../support/service-login.js';
import { call, urlOf } from './support.js';

// Issue 22, item 4: after a rotation, tokens of the previous key stay valid while it is listed.

let before: TestServer;
const started: GatehouseServer[] = [];

beforeAll(async () => {
  before = await startDataServer();
});

afterAll(async () => {
  await Promise.all(started.map((server) => server.close()));
  await before?.close();
});

/**
 * Another instance over the same database, its token keys read from the environment as
 * `gatehouse serve` reads them: what a restart after a rotation gives (on `port`, a restart in place).
 */
async function restartedWith(env: Record<string, string>, port = 0): Promise<Api> {
  const server = await createServer({
    database: asServiceLogin(await before.database.serviceUrl(), 2),
    tokens: envConfig(readEnvironment(env), 'postgres://unused', env.GATEHOUSE_PASETO_SECRET_KEY!).tokens,
    routeGroups: DATA_ROUTE_GROUPS,
    organizationRoles: Object.fromEntries(DEMO_ROLES.map((role) => [role.slug, role.permissions])),
    data: demoData,
    logger: pino({ level: 'silent' }),
  });
  started.push(server);
  return new Api(await server.listen({ port, host: '127.0.0.1' }));
}

/** Rotates `before`'s key: the `GATEHOUSE_…` variables `gatehouse keygen --rotate` prints. */
async function rotate(env: Record<string, string> = { GATEHOUSE_PASETO_SECRET_KEY: before.secretKey }): Promise<Record<string, string>> {
  const rotated = await runCli(['keygen', '--rotate'], before.database.ownerUrl, env);
  expect(rotated.code).toBe(0);
  return Object.fromEntries(rotated.stdout.split('\n').filter((line) => line.startsWith('GATEHOUSE_')).map((line) => line.split(/=(.*)/s).slice(0, 2)));
}

const serviceBase = (api: Api) => `${api.baseUrl.replace(/\/$/, '')}/api`;

/** The token's footer: `{"kid": id}`. */
const footerOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[3] ?? '', 'base64url').toString('utf8')) as { kid: string };

/** The token with a key id no key has in its footer. */
const madeUpKeyId = (token: string) => [...token.split('.').slice(0, 3), Buffer.from(JSON.stringify({ kid: 'made-up' })).toString('base64url')].join('.');

/** How often the key list went through `proxy`. */
const keyFetches = (proxy: TcpProxy) => proxy.roundTrips.filter((trip) => trip.sent.startsWith('GET /api/public-key')).length;

describe('key rotation', () => {
  it('keeps a previous key’s tokens valid while it is listed, and refuses them in verifyToken and both middlewares once it is retired and the list’s max-age has passed', async () => {
    const oldToken = await before.login('editor@acme.test');
    const published = (await before.api.get('/api/public-key')).body;
    expect(published.keys).toEqual([{ id: footerOf(oldToken).kid, key: published.key, current: true }]);
    expect((await before.api.get('/api/.well-known/paseto-public-key')).body).toEqual(published);

    const printed = await rotate();
    expect(printed.GATEHOUSE_PASETO_PREVIOUS_PUBLIC_KEYS).toBe(published.key);
    expect(printed.GATEHOUSE_PASETO_SECRET_KEY).toMatch(/^k4\.secret\./);
    expect(printed.GATEHOUSE_PASETO_SECRET_KEY).not.toBe(before.secretKey);

    // A second rotation keeps the keys already listed after the one it retires from signing.
    const kept = (await rotate(printed)).GATEHOUSE_PASETO_PREVIOUS_PUBLIC_KEYS?.split(',');
    expect(kept?.[1]).toBe(published.key);

    const after = await restartedWith(printed);
    const keys = (await after.get('/api/public-key')).body.keys;
    expect(keys.map((key: { current: boolean }) => key.current)).toEqual([true, false]);
    expect(keys[1]).toEqual({ id: published.id, key: published.key, current: false });
    expect((await after.get('/api/acme/user-role', { token: oldToken })).status).toBe(200);
    const newLogin = await after.post('/api/auth/login', { body: { email: 'owner@acme.test', password: 'password123!' } });
    expect(footerOf(newLogin.body.token).kid).toBe(keys[0].id);
    expect(tokenClaims(newLogin.body.token).grp).toBe('tenant');

    // A service that has the list with both keys, its clock moved on instead of waiting out the list's max-age.
    let advanced = 0;
    const service = createGatehouse({ baseURL: serviceBase(after), now: () => Date.now() + advanced });
    const app = express().use(service.express());
    app.get('/me', (_req, res) => void res.json({}));
    const expressServer = app.listen(0, '127.0.0.1');
    const fastify = Fastify().addHook('onRequest', service.fastify());
    fastify.get('/me', async () => ({}));
    await once(expressServer, 'listening');
    /** The token as verifyToken, the Express and the Fastify service answer it. */
    const answers = async (token: string) => [
      await service.verifyToken(token).then(() => 200, (error: UnauthenticatedError) => error.status),
      (await call(`${urlOf(expressServer)}/me`, token)).status,
      (await fastify.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } })).statusCode,
    ];
    try {
      expect((await service.verifyToken(oldToken)).sessionId).toBe(tokenClaims(oldToken).sid);
      expect((await service.verifyToken(newLogin.body.token)).routeGroup).toBe('tenant');
      expect(await answers(oldToken)).toEqual([200, 200, 200]);
      const maxAge = Number(/max-age=(\d+)/.exec((await fetch(`${serviceBase(after)}/public-key`)).headers.get('cache-control') ?? '')?.[1]);
      expect(maxAge).toBe(300);

      // Gatehouse restarts in place without the previous key, as after a leak.
      await started.at(-1)!.close();
      const retired = await restartedWith({ GATEHOUSE_PASETO_SECRET_KEY: printed.GATEHOUSE_PASETO_SECRET_KEY! }, Number(new URL(after.baseUrl).port));
      expect((await retired.get('/api/acme/user-role', { token: oldToken })).status).toBe(401);
      expect((await retired.get('/api/acme/user-role', { token: newLogin.body.token })).status).toBe(200);
      const strict = createGatehouse({ baseURL: serviceBase(retired) });
      await expect(strict.verifyToken(oldToken)).rejects.toBeInstanceOf(UnauthenticatedError);
      strict.close();

      // The service drops the retired key with the list's next fetch, once its max-age has passed.
      advanced = maxAge * 1000;
      expect(await answers(oldToken)).toEqual([401, 401, 401]);
      expect(await answers(newLogin.body.token)).toEqual([200, 200, 200]);
    } finally {
      expressServer.close();
      await fastify.close();
      service.close();
    }
  });

  it('fetches the keys again for an unknown key id at most once a second, the checks within it waiting for that fetch', async () => {
    const proxy = await startTcpProxy(Number(new URL(before.api.baseUrl).port));
    const token = await before.login('viewer@acme.test');
    // A clock that stands still but when moved.
    let now = Date.now();
    const service = createGatehouse({ baseURL: `http://127.0.0.1:${proxy.port}/api`, now: () => now });
    const madeUp = madeUpKeyId(token);
    try {
      expect((await service.verifyToken(token)).userId).toBeGreaterThan(0);
      const waiting = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        now += 300;
        waiting.push(expect(service.verifyToken(madeUp)).rejects.toBeInstanceOf(UnauthenticatedError));
        // The check goes as far as it can before the clock moves on.
        await new Promise(setImmediate);
      }
      now += 100;
      await Promise.all(waiting);
      expect(keyFetches(proxy)).toBe(2);
      // A second after that fetch, the next goes out at once.
      now += 1_000;
      await expect(service.verifyToken(madeUp)).rejects.toBeInstanceOf(UnauthenticatedError);
      expect(keyFetches(proxy)).toBe(3);
    } finally {
      service.close();
      await proxy.stop();
    }
  });

  it('ends a check waiting for its turn to fetch the keys once the client is closed, as unavailable', async () => {
    const token = await before.login('viewer@acme.test');
    // A clock that moves only when told: the check would wait for its turn for good.
    let now = Date.now();
    const service = createGatehouse({ baseURL: serviceBase(before.api), now: () => now });
    expect((await service.verifyToken(token)).userId).toBeGreaterThan(0);
    now += 300;
    const waiting = service.verifyToken(madeUpKeyId(token)).then(
      () => null,
      (error: unknown) => error,
    );
    await new Promise(setImmediate);
    service.close();
    expect(await waiting).toMatchObject({ kind: 'unavailable', message: 'The Gatehouse client was closed before Gatehouse answered.' });
  });

  it('holds a token of a key published within the second after the last fetch until the next fetch, then verifies it', async () => {
    const first = await restartedWith({ GATEHOUSE_PASETO_SECRET_KEY: before.secretKey });
    const port = Number(new URL(first.baseUrl).port);
    const proxy = await startTcpProxy(port);
    // A clock that stands still but when moved, a minute ahead: the token signed after the rotation is not from its future.
    let now = Date.now() + 60_000;
    const service = createGatehouse({ baseURL: `http://127.0.0.1:${proxy.port}/api`, now: () => now });
    const app = express().use(service.express());
    app.get('/me', (_req, res) => void res.json({}));
    const expressServer = app.listen(0, '127.0.0.1');
    await once(expressServer, 'listening');
    try {
      expect((await service.verifyToken(await before.login('viewer@acme.test'))).userId).toBeGreaterThan(0);
      // Gatehouse restarts in place with a rotated key and signs a token with it, which the service
      // checks half a second after its fetch.
      await started.at(-1)!.close();
      const rotated = await restartedWith(await rotate(), port);
      const { token } = (await rotated.post('/api/auth/login', { body: { email: 'owner@acme.test', password: 'password123!' } })).body;
      now += 500;
      const cancelled = new AbortController();
      const checks = [
        service.verifyToken(token).then((caller) => caller.routeGroup, (error: UnauthenticatedError) => error.status),
        call(`${urlOf(expressServer)}/me`, token).then((answer) => answer.status),
        service.verifyToken(madeUpKeyId(token)).catch((error: UnauthenticatedError) => error.status),
        service.verifyToken(token, { signal: cancelled.signal }).catch((error: unknown) => error),
      ];
      await new Promise(setImmediate);
      cancelled.abort();
      // The next fetch the rate limit allows: the checks still waiting share it.
      now += 500;
      const [routeGroup, status, madeUpStatus, cancellation] = await Promise.all(checks);
      expect([routeGroup, status, madeUpStatus]).toEqual(['tenant', 200, 401]);
      expect(cancellation).toBe(cancelled.signal.reason);
      expect(keyFetches(proxy)).toBe(2);
    } finally {
      expressServer.close();
      service.close();
      await proxy.stop();
    }
  });

  it('verifies with the keys a service is given, without asking Gatehouse', async () => {
    const token = await before.login('viewer@acme.test');
    const { key } = (await before.api.get('/api/public-key')).body;
    const offline = createGatehouse({ baseURL: 'http://127.0.0.1:9/api', publicKeys: [key] });
    expect((await offline.verifyToken(token)).userId).toBeGreaterThan(0);
    const other = createGatehouse({ baseURL: 'http://127.0.0.1:9/api', publicKeys: [(await generateTokenKeyPair()).publicKey] });
    await expect(other.verifyToken(token)).rejects.toBeInstanceOf(UnauthenticatedError);
  });
});
