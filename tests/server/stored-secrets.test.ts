import { createHash } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idOf } from './support/data-server.js';
import { lastMail, mailCount } from './support/mail.js';
import { createAccounts, createTenant } from './support/tenant-fixture.js';
import { startTestServer, type TestServer } from './support/test-server.js';

// What the README promises about secrets at rest and in the logs, read from the tables and from
// the server's own log lines: a database dump or a log shipper leaks no usable token or password.
let server: TestServer;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) });
  server = await startTestServer({ logger });
});

afterAll(() => server.close());

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
const PASSWORD = 'a long and new password';

async function inviteAndRegister() {
  const [owner] = await createAccounts(server, 'owner');
  const tenant = await createTenant(server, [{ account: owner, role: 'owner' }]);
  const email = `guest-${tenant.slug}@secrets.test`;
  const invited = await server.api.post(tenant.path('/invitations'), { token: owner.token, body: { email, role_id: await idOf(server, 'roles', 'slug', 'viewer') } });
  expect(invited.status).toBe(201);
  const mail = await lastMail(server, email);
  const registered = await server.api.post('/api/auth/register', {
    body: { token: mail.token, name: 'Guest', email, password: PASSWORD, password_confirmation: PASSWORD },
  });
  expect(registered.status).toBe(201);
  return { email, mail, invitationId: invited.body.id as number };
}

describe('tokens at rest', () => {
  it('stores an invitation token only as its SHA-256', async () => {
    const { mail, invitationId } = await inviteAndRegister();
    const [row] = await server.sql('SELECT * FROM invitations WHERE id = $1', [invitationId]);
    expect(row.token_hash).toBe(sha256(mail.token));
    expect(JSON.stringify(row)).not.toContain(mail.token);
  });

  it('stores a password reset token only as its SHA-256', async () => {
    const [account] = await createAccounts(server, 'forgetful');
    expect((await server.api.post('/api/auth/password/recover', { body: { email: account.email } })).status).toBe(200);
    const mail = await lastMail(server, account.email);
    const rows = await server.sql('SELECT * FROM password_resets WHERE user_id = $1', [account.id]);
    expect(rows.map((row) => row.token_hash)).toEqual([sha256(mail.token)]);
    expect(JSON.stringify(rows)).not.toContain(mail.token);
  });
});

describe('passwords at rest', () => {
  it('hashes with argon2id on registration and on reset', async () => {
    const { email } = await inviteAndRegister();
    const hashOf = async () => (await server.sql<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = $1', [email]))[0]!.password_hash;
    const registered = await hashOf();
    expect(registered).toMatch(/^\$argon2id\$/);
    expect(registered).not.toContain(PASSWORD);

    await server.api.post('/api/auth/password/recover', { body: { email } });
    // The reset mail is written after the answer, behind the invitation's.
    await expect.poll(() => mailCount(server, email)).toBe(2);
    const { token } = await lastMail(server, email);
    const other = 'another long password';
    expect((await server.api.post('/api/auth/password/reset', { body: { token, email, password: other, password_confirmation: other } })).status).toBe(200);
    const reset = await hashOf();
    expect(reset).toMatch(/^\$argon2id\$/);
    expect(reset).not.toBe(registered);
  });
});

describe('the mailer’s log', () => {
  it('names recipient and subject, never the body or its token', async () => {
    const { email, mail } = await inviteAndRegister();
    const mailLines = logLines.filter((line) => line.to === email);
    expect(mailLines.map((line) => line.subject)).toEqual([mail.subject]);
    const everything = JSON.stringify(logLines);
    expect(everything).not.toContain(mail.token);
    expect(everything).not.toContain(mail.body);
  });
});
