import { createGatehouse, UnauthenticatedError } from '@gatehouse/node';
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
import type { TestServer } from '../server/support/test-server.js';
import { tokenClaims } from '../server/support/token-claims.js';
import { asServiceLogin } from '../support/service-login.js';

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
 * `gatehouse serve` reads them: what a restart after a rotation gives.
 */
async function restartedWith(env: Record<string, string>): Promise<Api> {
  const server = await createServer({
    database: asServiceLogin(await before.database.serviceUrl(), 2),
    tokens: envConfig(readEnvironment(env), 'postgres://unused', env.GATEHOUSE_PASETO_SECRET_KEY!).tokens,
    routeGroups: DATA_ROUTE_GROUPS,
    organizationRoles: Object.fromEntries(DEMO_ROLES.map((role) => [role.slug, role.permissions])),
    data: demoData,
    logger: pino({ level: 'silent' }),
  });
  started.push(server);
  return new Api(await server.listen({ port: 0, host: '127.0.0.1' }));
}

/** The token's footer: `{"kid": id}`. */
const footerOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[3] ?? '', 'base64url').toString('utf8')) as { kid: string };

describe('key rotation', () => {
  it('keeps a previous key’s tokens valid while it is listed, and refuses them once it is retired', async () => {
    const oldToken = await before.login('editor@acme.test');
    const published = (await before.api.get('/api/public-key')).body;
    expect(published.keys).toEqual([{ id: footerOf(oldToken).kid, key: published.key, current: true }]);
    expect((await before.api.get('/api/.well-known/paseto-public-key')).body).toEqual(published);

    const rotated = await runCli(['keygen', '--rotate'], before.database.ownerUrl, { GATEHOUSE_PASETO_SECRET_KEY: before.secretKey });
    expect(rotated.code).toBe(0);
    const printed = Object.fromEntries(rotated.stdout.split('\n').filter((line) => line.startsWith('GATEHOUSE_')).map((line) => line.split(/=(.*)/s).slice(0, 2)));
    expect(printed.GATEHOUSE_PASETO_PREVIOUS_PUBLIC_KEYS).toBe(published.key);
    expect(printed.GATEHOUSE_PASETO_SECRET_KEY).toMatch(/^k4\.secret\./);
    expect(printed.GATEHOUSE_PASETO_SECRET_KEY).not.toBe(before.secretKey);

    // A second rotation keeps the keys already listed after the one it retires from signing.
    const again = await runCli(['keygen', '--rotate'], before.database.ownerUrl, printed);
    const kept = again.stdout.split('\n').find((line) => line.startsWith('GATEHOUSE_PASETO_PREVIOUS_PUBLIC_KEYS='))?.split(',');
    expect(kept?.[1]).toBe(published.key);

    const after = await restartedWith(printed);
    const keys = (await after.get('/api/public-key')).body.keys;
    expect(keys.map((key: { current: boolean }) => key.current)).toEqual([true, false]);
    expect(keys[1]).toEqual({ id: published.id, key: published.key, current: false });
    expect((await after.get('/api/acme/user-role', { token: oldToken })).status).toBe(200);
    const newLogin = await after.post('/api/auth/login', { body: { email: 'owner@acme.test', password: 'password123!' } });
    expect(footerOf(newLogin.body.token).kid).toBe(keys[0].id);
    expect(tokenClaims(newLogin.body.token).grp).toBe('tenant');

    const service = createGatehouse({ baseURL: `${after.baseUrl.replace(/\/$/, '')}/api` });
    expect((await service.verifyToken(oldToken)).sessionId).toBe(tokenClaims(oldToken).sid);
    expect((await service.verifyToken(newLogin.body.token)).routeGroup).toBe('tenant');
    service.close();

    const retired = await restartedWith({ GATEHOUSE_PASETO_SECRET_KEY: printed.GATEHOUSE_PASETO_SECRET_KEY! });
    expect((await retired.get('/api/acme/user-role', { token: oldToken })).status).toBe(401);
    expect((await retired.get('/api/acme/user-role', { token: newLogin.body.token })).status).toBe(200);
    const strict = createGatehouse({ baseURL: `${retired.baseUrl.replace(/\/$/, '')}/api` });
    await expect(strict.verifyToken(oldToken)).rejects.toBeInstanceOf(UnauthenticatedError);
    strict.close();
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
