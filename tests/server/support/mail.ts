import type { TestServer } from './test-server.js';

type Mail = { subject: string; body: string; token: string };

const newestMail = async (server: TestServer, recipient: string) =>
  (
    await server.sql<{ subject: string; body: string }>(
      'SELECT subject, body FROM mail_outbox WHERE lower(recipient) = lower($1) ORDER BY id DESC LIMIT 1',
      [recipient],
    )
  )[0];

/**
 * The newest message to `recipient` in mail_outbox, with the token it carries. Mail is delivered
 * from mail_queue after the answer: it waits a little for one.
 */
export async function lastMail(server: TestServer, recipient: string, waitMs = 5000): Promise<Mail> {
  const deadline = Date.now() + waitMs;
  let mail = await newestMail(server, recipient);
  while (!mail && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    mail = await newestMail(server, recipient);
  }
  if (!mail) throw new Error(`no mail to ${recipient}`);
  const token = /token: (\S+)/.exec(mail.body)?.[1];
  if (!token) throw new Error(`mail to ${recipient} carries no token`);
  return { ...mail, token };
}

const queued = async (server: TestServer, recipient: string) =>
  Number((await server.sql<{ count: string }>('SELECT count(*) FROM mail_queue WHERE lower(recipient) = lower($1) AND failed_at IS NULL', [recipient]))[0]?.count);

/** How many messages `recipient` received, once the mail queued for it has gone out (waiting up to waitMs). */
export async function mailCount(server: TestServer, recipient: string, waitMs = 5000): Promise<number> {
  const deadline = Date.now() + waitMs;
  while ((await queued(server, recipient)) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const [row] = await server.sql<{ count: string }>('SELECT count(*) FROM mail_outbox WHERE lower(recipient) = lower($1)', [recipient]);
  return Number(row?.count ?? 0);
}
