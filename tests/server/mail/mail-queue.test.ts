import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecretToken } from '../../../server/auth/secret-token.js';
import { createServer, type GatehouseServer } from '../../../server/create-server.js';
import type { Mailer, MailMessage } from '../../../server/mail/mailer.js';
import { Api } from '../support/http-client.js';
import { lastMail, mailCount } from '../support/mail.js';
import { startTestServer, TEST_ROUTE_GROUPS, type TestServer } from '../support/test-server.js';
import { asServiceLogin } from '../../support/service-login.js';

// The mail a request owes is in mail_queue before the answer: an instance that goes away after
// answering (here: closed while its mailer hangs, or after its mailer failed) loses nothing, and
// the next worker to run sends it.
const NEW_PASSWORD = 'a brand new password';

/** A mailer that takes each message and never finishes sending it: the process "dies" there. */
function hangingMailer(): Mailer & { taken: Promise<MailMessage> } {
  let take: (message: MailMessage) => void;
  const taken = new Promise<MailMessage>((resolve) => (take = resolve));
  return { taken, send: (message) => (take(message), new Promise<void>(() => {})) };
}

const failingMailer: Mailer = { send: () => Promise.reject(new Error('SMTP server down')) };

/** Another instance on the same database, with the default mailer (mail_outbox). */
const nextInstance = async (dropped: TestServer) =>
  createServer({
    database: asServiceLogin(await dropped.database.serviceUrl(), 2),
    tokens: { secretKey: dropped.secretKey },
    routeGroups: TEST_ROUTE_GROUPS,
    logger: pino({ level: 'silent' }),
  });

/** The time the lease of a claimed mail would take to run out. */
const leaseEnds = (server: TestServer) => server.sql('UPDATE mail_queue SET next_attempt_at = now() WHERE failed_at IS NULL');

async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let tries = 0; tries < 250; tries += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('gave up waiting');
}

describe('an invitation answered by an instance that goes away before its mail is sent', () => {
  let dropped: TestServer;
  let next: GatehouseServer | undefined;
  const mailer = hangingMailer();

  beforeAll(async () => {
    dropped = await startTestServer({ mailer });
  });
  afterAll(async () => {
    await next?.close();
    await dropped.close();
  });

  it('is mailed by the next worker, with the token of the stored invitation', async () => {
    const owner = await dropped.login('owner@acme.test');
    const [viewer] = await dropped.sql<{ id: number }>("SELECT id FROM roles WHERE slug = 'viewer'");
    const invited = await dropped.api.post('/api/acme/invitations', { token: owner, body: { email: 'survivor@invited.test', role_id: viewer!.id } });
    expect(invited.status).toBe(201);
    expect((await mailer.taken).to).toBe('survivor@invited.test');
    await dropped.server.close({ graceMs: 0 });
    expect(await dropped.sql('SELECT recipient, attempts FROM mail_queue')).toEqual([{ recipient: 'survivor@invited.test', attempts: 1 }]);
    expect(await dropped.sql('SELECT id FROM mail_outbox')).toEqual([]);

    await leaseEnds(dropped);
    next = await nextInstance(dropped);
    const mail = await lastMail(dropped, 'survivor@invited.test');
    expect(mail.subject).toBe('You are invited to join Acme Corporation');
    expect(await dropped.sql('SELECT token_hash FROM invitations WHERE id = $1', [invited.body.id])).toEqual([{ token_hash: hashSecretToken(mail.token) }]);
    expect(await dropped.sql('SELECT id FROM mail_queue')).toEqual([]);
  });
});

describe('a password reset whose delivery failed', () => {
  let dropped: TestServer;
  let next: GatehouseServer | undefined;

  beforeAll(async () => {
    dropped = await startTestServer({ mailer: failingMailer });
  });
  afterAll(async () => {
    await next?.close();
    await dropped.close();
  });

  it('is kept with its reset row, tried again by the next worker, and the link works', async () => {
    const asked = await dropped.api.post('/api/auth/password/recover', { body: { email: 'viewer@acme.test' } });
    const unknown = await dropped.api.post('/api/auth/password/recover', { body: { email: 'nobody@acme.test' } });
    expect(asked.body).toEqual(unknown.body);
    // The unknown address leaves nothing behind; the known one its mail, tried once, and its reset row.
    const queue = await until(async () => {
      const rows = await dropped.sql('SELECT kind, recipient, attempts, last_error FROM mail_queue');
      return rows.length === 1 && rows[0].last_error !== null ? rows : undefined;
    });
    expect(queue).toEqual([{ kind: 'message', recipient: 'viewer@acme.test', attempts: 1, last_error: 'SMTP server down' }]);
    expect(await dropped.sql("SELECT r.id FROM password_resets r JOIN users u ON u.id = r.user_id WHERE u.email = 'viewer@acme.test'")).toHaveLength(1);
    await dropped.server.close();

    await leaseEnds(dropped);
    next = await nextInstance(dropped);
    const mail = await lastMail(dropped, 'viewer@acme.test');
    const api = new Api(await next.listen({ port: 0, host: '127.0.0.1' }));
    const reset = await api.post('/api/auth/password/reset', { body: { token: mail.token, email: 'viewer@acme.test', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } });
    expect(reset.status).toBe(200);
    expect(await mailCount(dropped, 'nobody@acme.test')).toBe(0);
  });
});
