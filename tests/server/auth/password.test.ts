import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMail, mailCount } from '../support/mail.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(() => server.close());

const NEW_PASSWORD = 'a brand new secret';

const reset = (token: string, email: string, password = NEW_PASSWORD, confirmation = password) =>
  server.api.post('/api/auth/password/reset', { body: { token, email, password, password_confirmation: confirmation } });

const recover = (email: string, path = '/api/auth/password/recover') => server.api.post(path, { body: { email } });

describe('password recovery', () => {
  it('answers the same whether or not the email is registered, and mails only a registered one', async () => {
    const known = await recover('viewer@acme.test');
    const unknown = await recover('ghost@acme.test');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    await expect.poll(() => mailCount(server, 'viewer@acme.test')).toBe(1);
    expect(await mailCount(server, 'ghost@acme.test')).toBe(0);
  });

  it('validates the email field', async () => {
    const response = await server.api.post('/api/auth/password/recover', { body: {} });
    expect(response.status).toBe(422);
    expect(response.body.errors.email).toEqual(['The email field is required.']);
  });

  it('resets through the mailed token, revokes every session and keeps the token single-use', async () => {
    const email = 'editor@acme.test';
    const sessions = [await server.login(email), await server.login(email)];
    for (const session of sessions) expect((await server.api.get('/api/acme/roles', { token: session })).status).toBe(200);
    await recover(email);
    const { token, subject } = await lastMail(server, email);
    expect(subject).toBe('Reset your password');

    const response = await reset(token, email);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Your password has been reset.' });

    for (const session of sessions) expect((await server.api.get('/api/acme/roles', { token: session })).status).toBe(401);
    const [row] = await server.sql<{ open: number }>(
      "SELECT count(*)::int AS open FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = $1) AND revoked_at IS NULL",
      [email],
    );
    expect(row!.open).toBe(0);
    expect((await server.api.post('/api/auth/login', { body: { email, password: DEMO_PASSWORD } })).status).toBe(401);
    expect((await server.api.post('/api/auth/login', { body: { email, password: NEW_PASSWORD } })).status).toBe(200);

    const again = await reset(token, email, 'yet another secret');
    expect(again.status).toBe(422);
    expect(again.body.errors.token).toEqual(['This password reset token is invalid or has expired.']);
  });

  it('works through a route group’s own auth routes too', async () => {
    await recover('admin@example.test', '/api/admin/auth/password/recover');
    const { token } = await lastMail(server, 'admin@example.test');
    expect((await server.api.post('/api/admin/auth/password/reset', { body: { token, email: 'admin@example.test', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } })).status).toBe(200);
  });

  it('refuses a token with another email, an expired token and an unknown token', async () => {
    await recover('owner@globex.test');
    const { token } = await lastMail(server, 'owner@globex.test');
    expect((await reset(token, 'owner@acme.test')).status).toBe(422);
    expect((await reset('not-a-real-token', 'owner@globex.test')).status).toBe(422);

    await server.sql("UPDATE password_resets SET expires_at = now() - interval '1 second'");
    const expired = await reset(token, 'owner@globex.test');
    expect(expired.status).toBe(422);
    expect((await server.api.post('/api/auth/login', { body: { email: 'owner@globex.test', password: DEMO_PASSWORD } })).status).toBe(200);
  });

  it('requires a confirmed password of at least 8 characters', async () => {
    const mismatch = await reset('whatever', 'owner@acme.test', 'long enough', 'different');
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors.password).toEqual(['The password field confirmation does not match.']);
    const short = await reset('whatever', 'owner@acme.test', 'short');
    expect(short.body.errors.password).toEqual(['The password field must be at least 8 characters.']);
  });
});
