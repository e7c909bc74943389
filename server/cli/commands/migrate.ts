import { resolve } from 'node:path';
import { migrate } from '../../db/migrations.js';
import { openDatabaseTarget } from '../database-target.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

const USAGE = 'gatehouse migrate [--dir <folder>]';

/** The core's migrations, then the application's folder when `--dir` names one. */
export async function migrateCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, { dir: { type: 'string' } }, USAGE);
  if (positionals.length > 0) throw new UsageError(USAGE);
  const target = await openDatabaseTarget();
  try {
    const ran = await migrate(target.ownerUrl, { dir: values.dir === undefined ? undefined : resolve(values.dir) });
    console.log(ran.length > 0 ? `Applied ${ran.join(', ')}` : 'Database is up to date.');
  } finally {
    await target.stop();
  }
}
