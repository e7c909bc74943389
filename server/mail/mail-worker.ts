import type { Logger } from 'pino';
import { claimDueMail, forgetMail, recordMailFailure, rewriteAsMessage, type MailRetry, type QueuedMail } from '../db/repositories/mail-queue.js';
import type { Executor } from '../db/repositories/executor.js';
import { isDatabaseUnavailable } from '../db/connection/database-unavailable.js';
import type { Mailer, MailMessage } from './mailer.js';

/**
 * Turns a queued request (a password reset link) into its message, in the transaction given;
 * null when there is nothing to send (an unknown address).
 */
export type MailPreparer = (trx: Executor, recipient: string) => Promise<MailMessage | null>;

export interface MailWorkerOptions {
  mailer: Mailer;
  logger: Logger;
  passwordReset: MailPreparer;
  /** How often due mail is looked for without a nudge (another instance's, a retry); default 1 s. */
  pollMs?: number;
  /** Attempts before a mail is marked failed; default 8 (about 40 minutes with the default delays). */
  maxAttempts?: number;
  retry?: MailRetry;
}

const BATCH = 20;

/**
 * Delivers mail_queue: at start, when nudged (a request queued mail and committed), and every
 * pollMs. One pass at a time per instance; instances share the queue through row locks.
 */
export class MailWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Executor,
    private readonly options: MailWorkerOptions,
  ) {}

  start(): void {
    this.kick();
  }

  /** Runs a pass now, or right after the one running. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.kick();
      } else {
        this.timer = setTimeout(() => this.kick(), this.options.pollMs ?? 1000);
        this.timer.unref();
      }
    });
  }

  /** No pass starts after this; resolves once the running one ends or `graceMs` passed. */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([this.running, new Promise((resolve) => (timeout = setTimeout(resolve, graceMs)))]);
    clearTimeout(timeout);
  }

  private async pass(): Promise<void> {
    try {
      const retry = this.options.retry ?? { baseSeconds: 10, maxSeconds: 1800 };
      let claimed: QueuedMail[];
      do {
        claimed = await claimDueMail(this.db, BATCH, retry);
        for (const mail of claimed) {
          if (this.stopped) return;
          await this.deliver(mail);
        }
      } while (claimed.length === BATCH && !this.stopped);
    } catch (error) {
      // An outage is /api/ready's to report; the mail waits in the queue.
      if (!isDatabaseUnavailable(error)) this.options.logger.error({ err: error }, 'mail queue pass failed');
    }
  }

  private async message(mail: QueuedMail): Promise<MailMessage | null> {
    if (mail.kind === 'message') return { to: mail.recipient, subject: mail.subject!, text: mail.body! };
    return this.db.transaction().execute(async (trx) => {
      const message = await this.options.passwordReset(trx, mail.recipient);
      if (message) await rewriteAsMessage(trx, mail.id, message);
      else await forgetMail(trx, mail.id);
      return message;
    });
  }

  private async deliver(mail: QueuedMail): Promise<void> {
    const maxAttempts = this.options.maxAttempts ?? 8;
    try {
      const message = await this.message(mail);
      if (!message) return;
      await this.options.mailer.send(message);
      await forgetMail(this.db, mail.id);
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error;
      const final = mail.attempts >= maxAttempts;
      const reason = error instanceof Error ? error.message : String(error);
      // Recipient and reason only: the body carries a one-time token.
      this.options.logger[final ? 'error' : 'warn']({ mail: mail.id, to: mail.recipient, attempt: mail.attempts, err: reason }, final ? 'mail not delivered, giving up' : 'mail not delivered, will retry');
      await recordMailFailure(this.db, mail.id, reason, final);
    }
  }
}
