import { PublicProtocol } from 'paseto';
import { ImportPublicKeyFactory, ImportSecretKeyFactory, SignFactory, VerifyFactory } from 'paseto/v4/public';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTokenKeyPair } from '../../../server/auth/token-keys.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { instant, tokenClaims } from '../support/token-claims.js';

const v4 = new PublicProtocol(SignFactory, VerifyFactory, ImportSecretKeyFactory, ImportPublicKeyFactory);

let server: TestServer;
let token: string;
let claims: Record<string, string | null>;
/** How far the server's clock runs ahead of the wall's. */
let clockOffsetMs = 0;

beforeAll(async () => {
  server = await startTestServer({ clock: () => new Date(Date.now() + clockOffsetMs) });
  token = await server.login('editor@acme.test');
  claims = tokenClaims(token);
});

afterAll(() => server.close());

async function signed(secretKey: string, payload: Record<string, string | null>): Promise<string> {
  return v4.Sign(await v4.ImportSecretKey(secretKey as `k4.secret.${string}`), payload);
}

const rolesWith = (bearer: string) => server.api.get('/api/acme/roles', { token: bearer });

describe('bearer tokens', () => {
  it('carry user, session, route group and expiry', () => {
    expect(claims).toMatchObject({ sub: expect.stringMatching(/^\d+$/), sid: expect.any(String), grp: 'tenant', exp: expect.any(String) });
  });

  it('are refused with 401 when missing or not a bearer', async () => {
    expect((await server.api.get('/api/acme/roles')).status).toBe(401);
    expect((await server.api.get('/api/acme/roles', { headers: { authorization: `Basic ${token}` } })).status).toBe(401);
    expect((await rolesWith('not-a-token')).status).toBe(401);
  });

  it('are refused with 401 when tampered with', async () => {
    const [version, purpose, payload] = token.split('.') as [string, string, string];
    const bytes = Buffer.from(payload, 'base64url');
    bytes[5] = bytes[5]! ^ 1;
    expect((await rolesWith(`${version}.${purpose}.${bytes.toString('base64url')}`)).status).toBe(401);
  });

  it('are refused with 401 when expired', async () => {
    const expired = await signed(server.secretKey, { ...claims, exp: instant(new Date(Date.now() - 60_000)) });
    const response = await rolesWith(expired);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: 'Unauthenticated.' });
  });

  it('are refused with 401 when their session has expired, whatever the token says', async () => {
    const other = await server.login('viewer@acme.test');
    await server.sql("UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE id = $1", [tokenClaims(other).sid]);
    expect((await rolesWith(other)).status).toBe(401);
  });

  it('are refused with 401 when signed by another key', async () => {
    const { secretKey: foreignKey } = await generateTokenKeyPair();
    const foreign = await signed(foreignKey, { ...claims, exp: instant(new Date(Date.now() + 60_000)) });
    expect((await rolesWith(foreign)).status).toBe(401);
  });

  it('are refused with 401 once their expiry passes, though they were accepted before', async () => {
    const expiry = new Date(Math.ceil(Date.now() / 1000) * 1000 + 60_000);
    const shortLived = await signed(server.secretKey, { ...claims, exp: instant(expiry) });
    expect((await rolesWith(shortLived)).status).toBe(200);
    // The server's clock, not the wall's, moves past the expiry: no waiting in real time.
    clockOffsetMs = expiry.getTime() - Date.now() + 1_000;
    try {
      expect((await rolesWith(shortLived)).status).toBe(401);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('are refused with 401 when the session was revoked, though they were accepted before', async () => {
    const other = await server.login('editor@acme.test');
    expect((await rolesWith(other)).status).toBe(200);
    await server.api.post('/api/auth/logout', { token: other });
    expect((await rolesWith(other)).status).toBe(401);
  });

  it('are refused on signed-in routes as on member routes, from the very next request', async () => {
    // The slug check and organization creation need only a session, no organization: the same
    // database opening answers for them, so a revoked session is refused there at once too.
    const other = await server.login('viewer@acme.test');
    const signedInOnly = [() => server.api.get('/api/acme/organizations/exists', { token: other }), () => server.api.post('/api/organizations', { token: other, body: {} })];
    expect((await signedInOnly[0]!()).status).toBe(200);
    expect((await signedInOnly[1]!()).status).toBe(422);
    await server.sql('UPDATE sessions SET revoked_at = now() WHERE id = $1', [tokenClaims(other).sid]);
    for (const request of signedInOnly) expect((await request()).status).toBe(401);
    expect((await rolesWith(other)).status).toBe(401);
  });

  it('authenticate only in the route group they were issued for, elsewhere 403 so that clients keep the session', async () => {
    const adminToken = await server.login('admin@example.test', { path: '/api/admin/auth/login' });
    expect((await server.api.get('/api/admin/user-role', { token: adminToken })).status).toBe(200);
    for (const response of [await server.api.get('/api/admin/user-role', { token }), await server.api.get('/api/acme/roles', { token: adminToken })]) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: 'This session belongs to another route group.', reason: { gate: 'route_group' } });
    }
    expect((await rolesWith(token)).status).toBe(200);
  });

  it('are refused with 401 when their route group is no longer served', async () => {
    const other = await server.login('viewer@acme.test');
    const { sid } = tokenClaims(other);
    await server.sql("UPDATE sessions SET route_group = 'retired' WHERE id = $1", [sid]);
    const retired = await signed(server.secretKey, { ...tokenClaims(other), grp: 'retired' });
    expect((await rolesWith(retired)).status).toBe(401);
  });

  it('verify against the published public key', async () => {
    const response = await server.api.get('/api/.well-known/paseto-public-key');
    expect(response.status).toBe(200);
    expect(response.body.key).toMatch(/^k4\.public\./);
    // Cached briefly: after a rotation, new tokens name a key the cached list lacks.
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    const verified = await v4.Verify(await v4.ImportPublicKey(response.body.key), token);
    expect(verified.claims.sid).toBe(claims.sid);
  });
});
