import demo from '../../../policies/gatehouse.config.js';
import { migrate } from '../../db/migrations.js';
import type { CliCommand } from '../cli-command.js';
import { withDatabaseTarget } from '../database-target.js';

function seed(): Promise<void> {
  return withDatabaseTarget(async (target) => {
    await migrate(target.ownerUrl, { dir: demo.migrations });
    console.log((await demo.seed?.(target.ownerUrl)) ? 'Seeded the demo data.' : 'Demo data already present.');
  });
}

export const seedCommand: CliCommand = (program) => {
  program
    .command('seed')
    .description("Apply the core's and the demo's migrations, then load the demo data once")
    .requiredOption('--demo', 'the demo data (the only seed there is)')
    .action(seed);
};
