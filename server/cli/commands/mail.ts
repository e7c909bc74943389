import { InvalidArgumentError } from 'commander';
import type { OutboxMail } from '../../db/repositories/read-outbox.js';
import type { CliCommand } from '../cli-command.js';

// Safe integers only: a larger one reaches PostgreSQL's LIMIT rounded, or past its bigint range.
function count(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0) throw new InvalidArgumentError(`a whole number from 1 to ${Number.MAX_SAFE_INTEGER}.`);
  return parsed;
}

const format = (mail: OutboxMail) =>
  [`#${mail.id}  ${mail.createdAt.toISOString()}`, `To: ${mail.recipient}`, `Subject: ${mail.subject}`, '', mail.body, ''].join('\n');

async function showMail(options: { last: number }): Promise<void> {
  const [{ withMigratedDatabase }, { readOutbox }] = await Promise.all([import('../database-target.js'), import('../../db/repositories/read-outbox.js')]);
  return withMigratedDatabase(async (target) => {
    const mails = await readOutbox(target.ownerUrl, options.last);
    console.log(mails.length > 0 ? mails.map(format).join('\n') : 'The outbox is empty.');
  });
}

export const mailCommand: CliCommand = (program) => {
  program
    .command('mail')
    .description('Show the newest messages of the development outbox (invitations, password resets), oldest first')
    .option('--last <n>', 'how many messages', count, 5)
    .action(showMail);
};
