import { migrate } from '../../db/migrations.js';
import { openDatabaseTarget } from '../database-target.js';

export async function migrateCommand(): Promise<void> {
  const target = await openDatabaseTarget();
  try {
    const ran = await migrate(target.ownerUrl);
    console.log(ran.length > 0 ? `Applied ${ran.join(', ')}` : 'Database is up to date.');
  } finally {
    await target.stop();
  }
}
