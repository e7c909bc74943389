import { randomBytes } from 'node:crypto';
import pg from 'pg';
import demo from '../../policies/gatehouse.config.js';
import { migrate } from '../../server/db/migrations/migrations.js';
import { startTestCluster } from '../../harness/cluster.js';

/**
 * Runs fn against a database migrated for the demo application of its own (owner connection string), on the cluster the
 * tests would use; the database is dropped and the cluster stopped afterwards.
 */
export async function withBenchDatabase(fn: (ownerUrl: string) => Promise<void>): Promise<void> {
  const cluster = await startTestCluster();
  const database = `gatehouse_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: cluster.url('postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}`);
    const ownerUrl = cluster.url(database);
    await migrate(ownerUrl, { dir: demo.migrations });
    await fn(ownerUrl);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    await cluster.stop();
  }
}
