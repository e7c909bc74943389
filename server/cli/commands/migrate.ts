import { resolve } from 'node:path';
import type { CliCommand } from '../cli-command.js';
import { configOption } from '../common-options.js';

/** The core's migrations, then the application's folder: `--dir`, else the config's `migrations`. */
async function migrateDatabase(options: { dir?: string; config?: string }): Promise<void> {
  const [{ appConfig }, { withDatabaseTarget }, { migrate }] = await Promise.all([
    import('../load-config.js'),
    import('../database-target.js'),
    import('../../db/migrations/migrations.js'),
  ]);
  const dir = options.dir === undefined ? (await appConfig(options.config)).migrations : resolve(options.dir);
  return withDatabaseTarget(async (target) => {
    const ran = await migrate(target.ownerUrl, { dir });
    console.log(ran.length > 0 ? `Applied ${ran.join(', ')}` : 'Database is up to date.');
  });
}

export const migrateCommand: CliCommand = (program) => {
  program
    .command('migrate')
    .description("Apply the pending schema migrations: the core's, then the application's folder")
    .addOption(configOption())
    .option('--dir <folder>', "the application's migrations folder (instead of the config's)")
    .action(migrateDatabase);
};
