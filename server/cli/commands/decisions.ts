import { InvalidArgumentError } from 'commander';
import type { listDecisionLogs } from '../../db/repositories/decision-logs.js';
import { MAX_PER_PAGE } from '../../models/request-limits.js';
import type { CliCommand } from '../cli-command.js';

interface DecisionsOptions {
  org: string;
  user?: string;
  last: number;
}

function count(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0 || parsed > MAX_PER_PAGE) throw new InvalidArgumentError(`a whole number from 1 to ${MAX_PER_PAGE}.`);
  return parsed;
}

type Row = Awaited<ReturnType<typeof listDecisionLogs>>['rows'][number];

const line = (row: Row) =>
  [row.created_at.toISOString(), `user ${row.user_id ?? '-'}`, `${row.method} ${row.route}`, `${row.status} ${row.gate}`, row.permission ?? '', row.policy ?? ''].filter((part) => part !== '').join('  ');

async function decisions(options: DecisionsOptions): Promise<void> {
  const [{ runAdmin }, { enterOrganization, requireUser }, { listDecisionLogs }] = await Promise.all([
    import('../run-admin.js'),
    import('../admin-lookups.js'),
    import('../../db/repositories/decision-logs.js'),
  ]);
  const rows = await runAdmin(async (admin) => {
    const userId = options.user === undefined ? undefined : (await requireUser(admin.owner, options.user)).id;
    const { organization, trx } = await enterOrganization(admin, options.org);
    return (await listDecisionLogs(trx, organization.id, { userId }, { page: 1, perPage: options.last })).rows;
  });
  console.log(rows.length > 0 ? rows.map(line).join('\n') : 'No refused requests are stored (decisionLog.store: database keeps them).');
}

export const decisionsCommand: CliCommand = (program) => {
  program
    .command('decisions')
    .description("An organization's latest refused requests, newest first (stored with decisionLog.store: database)")
    .requiredOption('--org <slug>', 'the organization')
    .option('--user <email>', "only this user's")
    .option('--last <n>', 'how many', count, 20)
    .action(decisions);
};
