import demo from '../../../policies/gatehouse.config.js';
import { migrate } from '../../db/migrations.js';
import type { CliCommand } from '../cli-command.js';
import { openDatabaseTarget } from '../database-target.js';

async function seed(): Promise<void> {
  const target = await openDatabaseTarget();
  try {
    await migrate(target.ownerUrl, { dir: demo.migrations });
    console.log((await demo.seed?.(target.ownerUrl)) ? 'Seeded the demo data.' : 'Demo data already present.');
  } finally {
    await target.stop();
  }
}

export const seedCommand: CliCommand = (program) => {
  program
    .command('seed')
    .description('Migrate, then load the demo organizations, users and posts once')
    .requiredOption('--demo', 'the demo data (the only seed there is)')
    .action(seed);
};
