import type { Logger } from 'pino';
import type { Executor } from '../db/repositories/executor.js';
import { storeMail } from '../db/repositories/mail-outbox.js';
import type { Mailer, MailMessage } from './mailer.js';

/**
 * Development mailer: keeps every message in the mail_outbox table, where operators and tests
 * read it. The log line names only recipient and subject: bodies carry one-time tokens.
 */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly db: Executor,
    private readonly logger: Logger,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await storeMail(this.db, { recipient: message.to, subject: message.subject, body: message.text });
    this.logger.info({ to: message.to, subject: message.subject }, 'mail stored in mail_outbox');
  }
}
