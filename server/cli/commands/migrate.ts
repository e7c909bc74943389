import { resolve } from 'node:path';
import { migrate } from '../../db/migrations.js';
import type { CliCommand } from '../cli-command.js';
import { withDatabaseTarget } from '../database-target.js';

/** The core's migrations, then the application's folder when `--dir` names one. */
function migrateDatabase(options: { dir?: string }): Promise<void> {
  return withDatabaseTarget(async (target) => {
    const ran = await migrate(target.ownerUrl, { dir: options.dir === undefined ? undefined : resolve(options.dir) });
    console.log(ran.length > 0 ? `Applied ${ran.join(', ')}` : 'Database is up to date.');
  });
}

export const migrateCommand: CliCommand = (program) => {
  program
    .command('migrate')
    .description("Apply the pending schema migrations: the core's, then the application's folder")
    .option('--dir <folder>', "the application's migrations folder")
    .action(migrateDatabase);
};
