import { sql, type RawBuilder } from 'kysely';
import type { Executor } from './executor.js';
import type { RequestDeadline } from '../transactions/request-deadline.js';
import { runWithinDeadline } from '../transactions/request-read.js';
import { runWrite, type LastWrite } from '../transactions/read-ahead.js';

/** A message as the mailer takes it (the mail layer's MailMessage, which sits above this one). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface QueuedMail {
  id: string;
  kind: 'message' | 'password_reset';
  recipient: string;
  subject: string | null;
  body: string | null;
  attempts: number;
}

/**
 * Queues a mail in the caller's transaction: it is sent only if that transaction commits.
 * `last`: the transaction's last statement, its COMMIT sent with it (LastWrite).
 */
export async function queueMessage(db: Executor, message: MailMessage, options: LastWrite = {}): Promise<void> {
  await runWrite(db, db.insertInto('mail_queue').values({ kind: 'message', recipient: message.to, subject: message.subject, body: message.text }).compile(), options);
}

/** Queues a mail once for each row of `source` (a common table expression's name): for a mail that goes only if a write in the same statement wrote. */
export function queueMessageFor(source: string, message: MailMessage): RawBuilder<unknown> {
  return sql`INSERT INTO mail_queue (kind, recipient, subject, body) SELECT 'message', ${message.to}, ${message.subject}, ${message.text} FROM ${sql.table(source)}`;
}

/** Queues a password reset link for `email`, known or not: the worker looks it up. */
export async function queuePasswordReset(db: Executor, email: string, deadline: RequestDeadline): Promise<void> {
  await runWithinDeadline(db, db.insertInto('mail_queue').values({ kind: 'password_reset', recipient: email }).compile(), deadline);
}

export interface MailRetry {
  /** The lease of a first attempt, doubled at each further one. */
  baseSeconds: number;
  maxSeconds: number;
}

/**
 * Claims up to `limit` due mails, each for a lease that grows with its attempts: an instance
 * that dies while sending leaves them due again once the lease ends, which is also the delay
 * before a failed delivery is tried again. Rows another instance holds are skipped.
 */
export async function claimDueMail(db: Executor, limit: number, retry: MailRetry): Promise<QueuedMail[]> {
  const { rows } = await sql<QueuedMail>`
    UPDATE mail_queue SET attempts = attempts + 1,
      next_attempt_at = now() + make_interval(secs => least(${retry.baseSeconds} * power(2, attempts), ${retry.maxSeconds}))
    WHERE id IN (
      SELECT id FROM mail_queue WHERE failed_at IS NULL AND next_attempt_at <= now() ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED
    )
    RETURNING id::text, kind, recipient, subject, body, attempts`.execute(db);
  return rows;
}

/** A password reset row becomes the message it turned into (in the transaction that wrote its reset). */
export async function rewriteAsMessage(db: Executor, id: string, message: MailMessage): Promise<void> {
  await db.updateTable('mail_queue').set({ kind: 'message', recipient: message.to, subject: message.subject, body: message.text }).where('id', '=', id).execute();
}

/** Sent, or nothing to send: the row (and the token its body carries) goes. */
export async function forgetMail(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('mail_queue').where('id', '=', id).execute();
}

/** A delivery failed; the last allowed attempt marks the mail failed for good. */
export async function recordMailFailure(db: Executor, id: string, error: string, final: boolean): Promise<void> {
  await db
    .updateTable('mail_queue')
    .set({ last_error: error.slice(0, 1000), failed_at: final ? sql<Date>`now()` : null })
    .where('id', '=', id)
    .execute();
}
