import { commandGroup, type CliCommand } from '../cli-command.js';

async function printUrl(options: { role?: string }): Promise<void> {
  const [{ runningDatabaseUrl }, { roleUrl }] = await Promise.all([import('../database-target.js'), import('../../db/logins/role-url.js')]);
  const url = await runningDatabaseUrl();
  if (url === null) throw new Error('The embedded database is not running: start it with `gatehouse start` (or set DATABASE_URL).');
  console.log(options.role === undefined ? url : roleUrl(url, options.role));
}

export const dbCommand: CliCommand = (program) => {
  commandGroup(program, 'db', 'The database Gatehouse uses')
    .command('url')
    .description("Print the database's connection string, password included (DATABASE_URL, or the running embedded cluster's)")
    .option('--role <login>', 'the same server and database for another login, without a password (psql asks for it, or reads PGPASSWORD)')
    .action(printUrl);
};
