import { commandGroup, type CliCommand } from '../cli-command.js';
import { runningDatabaseUrl } from '../database-target.js';

async function printUrl(): Promise<void> {
  const url = await runningDatabaseUrl();
  if (url === null) throw new Error('The embedded database is not running: start it with `gatehouse start` (or set DATABASE_URL).');
  console.log(url);
}

export const dbCommand: CliCommand = (program) => {
  commandGroup(program, 'db', 'The database Gatehouse uses')
    .command('url')
    .description("Print the database's connection string, password included (DATABASE_URL, or the running embedded cluster's)")
    .action(printUrl);
};
