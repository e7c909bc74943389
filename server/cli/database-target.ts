import { runningClusterUrl, startEmbeddedCluster } from '../db/cluster/embedded-cluster.js';
import { assertReachable } from '../db/connection/reachability.js';
import { isSchemaMissing } from '../db/migrations/schema-missing.js';
import { DatabaseNotMigratedError } from '../errors/database-not-migrated-error.js';
import { readEnvironment, type Environment } from './environment.js';
import { gatehouseHome } from './gatehouse-home.js';
import { clusterDataDir } from './cluster-data-dir.js';

export interface DatabaseTarget {
  /** Owner connection string: migrations, seeds, analyst grants. */
  ownerUrl: string;
  /** True for the embedded cluster (started here, or attached to a running `npm start`). */
  embedded: boolean;
  stop(): Promise<void>;
}

const EMBEDDED_DATABASE = 'gatehouse';

const embeddedDataDir = (env: Environment) => clusterDataDir(gatehouseHome(env));

/**
 * DATABASE_URL when set (checked reachable first); otherwise the project's embedded cluster under
 * `.gatehouse/` (`cluster-data-dir.ts` for root), kept across restarts so the demo data survives, and shared with a running
 * `npm start`.
 */
export async function openDatabaseTarget(env: Environment = readEnvironment()): Promise<DatabaseTarget> {
  if (env.DATABASE_URL) {
    await assertReachable(env.DATABASE_URL);
    return { ownerUrl: env.DATABASE_URL, embedded: false, stop: async () => {} };
  }
  const cluster = await startEmbeddedCluster({ dataDir: await embeddedDataDir(env), persistent: true, attach: true, port: env.GATEHOUSE_PG_PORT || undefined });
  const { OwnClient } = await import('../db/connection/own-client.js');
  const admin = new OwnClient({ connectionString: cluster.url() });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${EMBEDDED_DATABASE}`);
  } finally {
    await admin.end();
  }
  return { ownerUrl: cluster.url(EMBEDDED_DATABASE), embedded: true, stop: () => cluster.stop() };
}

/** DATABASE_URL, or the owner URL of the embedded cluster while it runs; null when it does not. */
export async function runningDatabaseUrl(env: Environment = readEnvironment()): Promise<string | null> {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  return runningClusterUrl(await embeddedDataDir(env), EMBEDDED_DATABASE);
}

/** Runs `work` on the database target (see openDatabaseTarget), stopping it afterwards. */
export async function withDatabaseTarget<T>(work: (target: DatabaseTarget) => Promise<T>): Promise<T> {
  const target = await openDatabaseTarget();
  try {
    return await work(target);
  } finally {
    await target.stop();
  }
}

/**
 * withDatabaseTarget for work on Gatehouse's own tables: a database that lacks them says it is
 * not migrated, as the HTTP API does, instead of PostgreSQL's `relation "users" does not exist`.
 * Not for migrate and seed, whose own SQL may fail that way for a reason of its own.
 */
export function withMigratedDatabase<T>(work: (target: DatabaseTarget) => Promise<T>): Promise<T> {
  return withDatabaseTarget(async (target) => {
    try {
      return await work(target);
    } catch (error) {
      if (isSchemaMissing(error)) throw new DatabaseNotMigratedError();
      throw error;
    }
  });
}
