import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envConfig } from '../../../server/cli/env-config.js';
import { readEnvironment } from '../../../server/cli/environment.js';
import { resolveConfig } from '../../../server/config/server-config.js';
import { createServer, type GatehouseServer } from '../../../server/create-server.js';
import { openDatabase, type Database } from '../../../server/db/connection/database.js';
import { TooManyAttemptsError } from '../../../server/errors/too-many-attempts-error.js';
import { httpErrorFor } from '../../../server/http/http-error-for.js';
import { Throttle } from '../../../server/throttle/throttle.js';
import { resolveThrottleLimits } from '../../../server/throttle/throttle-limits.js';
import { Api, type ApiResponse } from '../support/http-client.js';
import { lastMail, mailCount } from '../support/mail.js';
import { DEMO_PASSWORD, startTestServer, TEST_ROUTE_GROUPS, type TestServer } from '../support/test-server.js';
import { asServiceLogin } from '../../support/service-login.js';

// Small limits so each rule is reached in a few requests. Behind one trusted proxy the client
// address is the last X-Forwarded-For entry: the one the proxy appended.
const rule = (maxAttempts: number) => ({ maxAttempts, decaySeconds: 600 });
const THROTTLE = {
  login: { email: rule(3), address: rule(6) },
  register: { email: rule(2), address: rule(4) },
  passwordRecover: { email: rule(3), address: rule(5) },
  passwordReset: { email: rule(2), address: rule(4) },
  invitationSend: { email: rule(2), address: rule(3) },
};

let server: TestServer;
let second: GatehouseServer;
let secondApi: Api;
let owner: string;
let viewerRole: number;
let nextAddress = 1;

beforeAll(async () => {
  server = await startTestServer({ throttle: THROTTLE, trustProxy: true });
  // A second instance on the same database, as behind a load balancer.
  second = await createServer({
    database: asServiceLogin(await server.database.serviceUrl(), 2),
    tokens: { secretKey: server.secretKey },
    routeGroups: TEST_ROUTE_GROUPS,
    logger: pino({ level: 'silent' }),
    throttle: THROTTLE,
    trustProxy: true,
  });
  secondApi = new Api(await second.listen({ port: 0, host: '127.0.0.1' }));
  owner = await server.login('owner@acme.test');
  viewerRole = (await server.sql<{ id: number }>("SELECT id FROM roles WHERE slug = 'viewer'"))[0]!.id;
});

afterAll(async () => {
  await second.close();
  await server.close();
});

/** A client address no other test uses, so each test starts with fresh address windows. */
const freshAddress = () => `203.0.113.${nextAddress++}`;
const from = (address: string, spoofed = '198.51.100.1') => ({ 'x-forwarded-for': `${spoofed}, ${address}` });

const post = (path: string, body: unknown, address: string, api = server.api) => api.post(path, { body, headers: from(address) });
const login = (email: string, password: string, address: string, api = server.api) => post('/api/auth/login', { email, password }, address, api);
const recover = (email: string, address: string) => post('/api/auth/password/recover', { email }, address);
const reset = (email: string, address: string) =>
  post('/api/auth/password/reset', { token: 'not-a-token', email, password: 'new password!', password_confirmation: 'new password!' }, address);
const register = (email: string, address: string) =>
  post('/api/auth/register', { token: 'not-an-invitation', name: 'N', email, password: 'new password!', password_confirmation: 'new password!' }, address);

function expectTooMany(response: ApiResponse, what: string): void {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ message: expect.stringMatching(new RegExp(`^Too many ${what}\\. Please try again in \\d+ seconds\\.$`)) });
  const wait = Number(response.headers['retry-after']);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(600);
  expect(response.body.message).toContain(`in ${wait} seconds`);
}

describe('login', () => {
  it('refuses an email and address after its failures, counted across both instances', async () => {
    const address = freshAddress();
    expect((await login('owner@globex.test', 'wrong', address)).status).toBe(401);
    expect((await login('owner@globex.test', 'wrong', address, secondApi)).status).toBe(401);
    expect((await login('owner@globex.test', 'wrong', address)).status).toBe(401);
    expectTooMany(await login('owner@globex.test', DEMO_PASSWORD, address, secondApi), 'login attempts');
    // The same email from elsewhere is not locked out.
    expect((await login('owner@globex.test', DEMO_PASSWORD, freshAddress())).status).toBe(200);
  });

  it('refuses an address after failures spread over many emails, known or not', async () => {
    const address = freshAddress();
    for (let attempt = 0; attempt < 6; attempt += 1) {
      expect((await login(attempt % 2 ? `nobody${attempt}@acme.test` : 'viewer@acme.test', `wrong ${attempt}`, address, attempt % 3 ? secondApi : server.api)).status).toBe(401);
    }
    expectTooMany(await login('editor@acme.test', DEMO_PASSWORD, address), 'login attempts');
    expect((await login('editor@acme.test', DEMO_PASSWORD, freshAddress())).status).toBe(200);
  });

  it('forgives the failures of an email and address once it signs in', async () => {
    const address = freshAddress();
    for (let round = 0; round < 2; round += 1) {
      expect((await login('editor@acme.test', 'wrong', address)).status).toBe(401);
      expect((await login('editor@acme.test', 'wrong', address)).status).toBe(401);
      expect((await login('editor@acme.test', DEMO_PASSWORD, address)).status).toBe(200);
    }
  });

  it('reads the client address from the proxy, not from what the client wrote in X-Forwarded-For', async () => {
    const address = freshAddress();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await server.api.post('/api/auth/login', { body: { email: 'owner@acme.test', password: 'wrong' }, headers: from(address, `10.9.9.${attempt}`) })).status).toBe(401);
    }
    expectTooMany(await server.api.post('/api/auth/login', { body: { email: 'owner@acme.test', password: DEMO_PASSWORD }, headers: from(address, '10.9.9.9') }), 'login attempts');
  });
});

describe('password recovery', () => {
  it('answers known and unknown emails alike, 429 included, and mails at most the limit', async () => {
    const answers = async (email: string) => {
      const address = freshAddress();
      const seen = [];
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const response = await recover(email, address);
        seen.push({ status: response.status, body: response.body, retryAfter: response.headers['retry-after'] !== undefined });
      }
      return seen;
    };
    const known = await answers('viewer@acme.test');
    const unknown = await answers('ghost@acme.test');
    expect(known.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429]);
    expect(unknown.map((answer) => ({ ...answer, body: answer.body.message.replace(/\d+ seconds/, 'N seconds') }))).toEqual(
      known.map((answer) => ({ ...answer, body: answer.body.message.replace(/\d+ seconds/, 'N seconds') })),
    );
    expectTooMany(await recover('viewer@acme.test', freshAddress()), 'password reset requests');

    await expect.poll(() => mailCount(server, 'viewer@acme.test')).toBe(3);
    const resets = await server.sql("SELECT count(*)::int AS n FROM password_resets r JOIN users u ON u.id = r.user_id WHERE u.email = 'viewer@acme.test'");
    expect(resets).toEqual([{ n: 3 }]);
    expect(await mailCount(server, 'ghost@acme.test')).toBe(0);
  });

  it('limits one address over many emails', async () => {
    const address = freshAddress();
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await recover(`flood${attempt}@acme.test`, address)).status).toBe(200);
    expectTooMany(await recover('flood-next@acme.test', address), 'password reset requests');
  });
});

describe('password reset, registration and invitations', () => {
  it('limits password reset attempts per email and per address', async () => {
    const address = freshAddress();
    expect((await reset('owner@acme.test', address)).status).toBe(422);
    expect((await reset('owner@acme.test', freshAddress())).status).toBe(422);
    expectTooMany(await reset('owner@acme.test', freshAddress()), 'password reset attempts');
    for (const email of ['a@acme.test', 'b@acme.test', 'c@acme.test']) expect((await reset(email, address)).status).toBe(422);
    expectTooMany(await reset('d@acme.test', address), 'password reset attempts');
  });

  it('limits registration attempts per email and per address, known email or not', async () => {
    const address = freshAddress();
    for (const email of ['viewer@acme.test', 'newbie@acme.test']) {
      expect((await register(email, address)).status).toBe(404);
      expect((await register(email, freshAddress())).status).toBe(404);
      expectTooMany(await register(email, freshAddress()), 'registration attempts');
    }
    for (const email of ['third@acme.test', 'fourth@acme.test']) expect((await register(email, address)).status).toBe(404);
    expectTooMany(await register('fifth@acme.test', address), 'registration attempts');
  });

  it('limits invitation sends and resends per invitee; refused sends do not count', async () => {
    const headers = from(freshAddress());
    const created = await server.api.post('/api/acme/invitations', { token: owner, headers, body: { email: 'invitee@acme.test', role_id: viewerRole } });
    expect(created.status).toBe(201);
    const duplicate = await server.api.post('/api/acme/invitations', { token: owner, headers, body: { email: 'invitee@acme.test', role_id: viewerRole } });
    expect(duplicate.status).toBe(422);
    const resend = () => server.api.post(`/api/acme/invitations/${created.body.id}/resend`, { token: owner, headers: from(freshAddress()) });
    expect((await resend()).status).toBe(200);
    expectTooMany(await resend(), 'invitations');
    await expect.poll(() => mailCount(server, 'invitee@acme.test')).toBe(2);
    expect((await lastMail(server, 'invitee@acme.test')).subject).toMatch(/invit/i);
  });

  it('limits invitation sends per inviter, from any address', async () => {
    await server.sql(
      "INSERT INTO users (name, email, password_hash) SELECT 'Second Owner', 'second-owner@acme.test', password_hash FROM users WHERE email = 'owner@acme.test'",
    );
    await server.sql(
      "INSERT INTO user_roles (user_id, organization_id, role_id, route_group) SELECT u.id, o.id, r.id, 'tenant' FROM users u, organizations o, roles r WHERE u.email = 'second-owner@acme.test' AND o.slug = 'acme' AND r.slug = 'owner'",
    );
    const inviter = await server.login('second-owner@acme.test');
    const send = (email: string) => server.api.post('/api/acme/invitations', { token: inviter, headers: from(freshAddress()), body: { email, role_id: viewerRole } });
    for (const name of ['one', 'two', 'three']) expect((await send(`${name}@invited.test`)).status).toBe(201);
    expectTooMany(await send('four@invited.test'), 'invitations');
  });
});

describe('the stored counters', () => {
  it('hold neither emails nor addresses, only digests', async () => {
    const rows = await server.sql<{ key: string }>('SELECT key FROM rate_limits');
    expect(rows.length).toBeGreaterThan(0);
    for (const { key } of rows) expect(key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('let attempts in again once the old ones have left the window', async () => {
    const address = freshAddress();
    for (let attempt = 0; attempt < 3; attempt += 1) await login('viewer@acme.test', 'wrong', address);
    expect((await login('viewer@acme.test', DEMO_PASSWORD, address)).status).toBe(429);
    await server.sql("UPDATE rate_limits SET attempts = ARRAY(SELECT t - interval '601 seconds' FROM unnest(attempts) AS t)");
    expect((await login('viewer@acme.test', DEMO_PASSWORD, address)).status).toBe(200);
  });
});

describe('the sliding window', () => {
  const LIMIT = 5;
  const limits = resolveThrottleLimits({ login: { email: { maxAttempts: LIMIT, decaySeconds: 60 }, address: { maxAttempts: 1000, decaySeconds: 60 } } });
  let database: Database;
  let now: number;
  const throttle = new Throttle(limits, () => new Date(now));
  const admitted = async (count: number, email: string) => {
    let passed = 0;
    for (let attempt = 0; attempt < count; attempt += 1) {
      const refused = await throttle.attempt(database.db, 'login', { email, address: '192.0.2.1' }).then(() => false, (error: unknown) => error instanceof TooManyAttemptsError);
      if (!refused) passed += 1;
    }
    return passed;
  };

  beforeAll(() => {
    database = openDatabase({ connectionString: server.database.ownerUrl, maxConnections: 1 });
    now = Date.parse('2030-01-01T00:00:00Z');
  });
  afterAll(() => database.close());

  it('admits no burst of twice the limit across the end of a window', async () => {
    expect(await admitted(1, 'edge@throttle.test')).toBe(1);
    now += 59_000;
    expect(await admitted(LIMIT, 'edge@throttle.test')).toBe(LIMIT - 1);
    // Where a fixed window opened at the first attempt would start again.
    now += 2_000;
    expect(await admitted(LIMIT, 'edge@throttle.test')).toBe(1);
    // Sixty seconds after the burst it has left the window; the attempt admitted at 61 s has not.
    now += 58_000;
    expect(await admitted(LIMIT, 'edge@throttle.test')).toBe(LIMIT - 1);
  });

  it('names the wait until the oldest attempt leaves the window', async () => {
    await admitted(LIMIT, 'wait@throttle.test');
    now += 45_000;
    const refusal = await throttle.attempt(database.db, 'login', { email: 'wait@throttle.test', address: '192.0.2.1' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TooManyAttemptsError);
    expect(httpErrorFor(refusal)!.headers).toEqual({ 'Retry-After': '15' });
  });
});

describe('configuration', () => {
  it('takes the number of trusted proxies from GATEHOUSE_TRUST_PROXY', () => {
    const proxies = (value: string) => resolveConfig(envConfig(readEnvironment({ GATEHOUSE_TRUST_PROXY: value }), 'postgres://unused', server.secretKey)).trustProxy;
    expect([proxies(''), proxies('false'), proxies('true'), proxies('1'), proxies('2')]).toEqual([0, 0, 1, 1, 2]);
    expect(() => proxies('maybe')).toThrow('GATEHOUSE_TRUST_PROXY must be true, false or the number of proxies in front of the service.');
  });

  it('refuses a rule that is not a whole number the counter stores', () => {
    const config = (maxAttempts: number) => resolveConfig({ ...envConfig(readEnvironment({}), 'postgres://unused', server.secretKey), throttle: { register: { email: { maxAttempts, decaySeconds: 60 } } } });
    expect(config(3).throttle.register).toEqual({ email: { maxAttempts: 3, decaySeconds: 60 }, address: { maxAttempts: 30, decaySeconds: 600 } });
    // Past an int4, the counter's statement failed and every attempt was a 500.
    for (const maxAttempts of [0, 1.5, 2 ** 31]) expect(() => config(maxAttempts)).toThrow('throttle.register.email.maxAttempts must be a whole number from 1 to 2147483647.');
  });
});
