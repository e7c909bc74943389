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
import { startTcpProxy } from '../server/support/tcp-proxy.js';
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

  it('fetches the keys again for an unknown key id at most once a second', async () => {
    const proxy = await startTcpProxy(Number(new URL(before.api.baseUrl).port));
    const token = await before.login('viewer@acme.test');
    // A clock that stands still but when moved.
    let now = Date.now();
    const service = createGatehouse({ baseURL: `http://127.0.0.1:${proxy.port}/api`, now: () => now });
    const parts = token.split('.');
    const madeUp = [...parts.slice(0, 3), Buffer.from(JSON.stringify({ kid: 'made-up' })).toString('base64url')].join('.');
    const fetches = () => proxy.roundTrips.filter((trip) => trip.sent.startsWith('GET /api/public-key')).length;
    try {
      expect((await service.verifyToken(token)).userId).toBeGreaterThan(0);
      for (let attempt = 0; attempt < 3; attempt += 1) await expect(service.verifyToken(madeUp)).rejects.toBeInstanceOf(UnauthenticatedError);
      expect(fetches()).toBe(1);
      now += 1_001;
      for (let attempt = 0; attempt < 3; attempt += 1) await expect(service.verifyToken(madeUp)).rejects.toBeInstanceOf(UnauthenticatedError);
      expect(fetches()).toBe(2);
    } finally {
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
