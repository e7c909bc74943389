import demo from '../../../policies/gatehouse.config.js';
import { migrate } from '../../db/migrations.js';
import { openDatabaseTarget } from '../database-target.js';
import { UsageError } from '../usage-error.js';

export async function seedCommand(args: string[]): Promise<void> {
  if (!args.includes('--demo')) throw new UsageError('gatehouse seed --demo');
  const target = await openDatabaseTarget();
  try {
    await migrate(target.ownerUrl, { dir: demo.migrations });
    console.log((await demo.seed?.(target.ownerUrl)) ? 'Seeded the demo data.' : 'Demo data already present.');
  } finally {
    await target.stop();
  }
}
