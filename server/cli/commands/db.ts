import { InvalidArgumentError, Option } from 'commander';
import { commandGroup, type CliCommand } from '../cli-command.js';
import { gatehouseCommand } from '../../errors/gatehouse-command.js';

// An empty name would print a URL naming no login at all, which connects as whoever runs psql.
const loginName = (value: string) => {
  if (value === '') throw new InvalidArgumentError('a login name.');
  return value;
};

async function printUrl(options: { role?: string }): Promise<void> {
  const [{ runningDatabaseUrl }, { roleUrl }] = await Promise.all([import('../database-target.js'), import('../../db/logins/role-url.js')]);
  const url = await runningDatabaseUrl();
  if (url === null) throw new Error(`The embedded database is not running: start it with \`${gatehouseCommand('start')}\` (or set DATABASE_URL).`);
  console.log(options.role === undefined ? url : roleUrl(url, options.role));
}

export const dbCommand: CliCommand = (program) => {
  commandGroup(program, 'db', 'The database Gatehouse uses')
    .command('url')
    .description("Print the database's connection string, password included (DATABASE_URL, or the running embedded cluster's)")
    .addOption(new Option('--role <login>', 'the same server and database for another login, without a password (psql asks for it, or reads PGPASSWORD)').argParser(loginName))
    .action(printUrl);
};
