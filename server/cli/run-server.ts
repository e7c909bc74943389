import type { GatehouseConfig } from '../config/gatehouse-config.js';
import { createServer } from '../create-server.js';
import { startTracing } from '../observability/otel-sdk.js';
import { assertMigrated } from '../db/migrations/migration-status.js';
import { openDatabaseTarget } from './database-target.js';
import { envConfig } from './env-config.js';
import { readEnvironment, type Environment } from './environment.js';
import { gatehouseHome } from './gatehouse-home.js';
import { ownShutdownSignals } from './own-shutdown-signals.js';
import { watchParent } from './parent-watch.js';
import { ConfigError } from '../errors/config-error.js';
import { assertPortFree, portError } from './port-check.js';
import { serviceDatabase } from './service-database.js';
import { signingKey } from './signing-key.js';

export interface RunOptions {
  /** The application served. */
  app: GatehouseConfig;
  /** Runs on the owner connection before the server starts (migrations, seeds). */
  prepare?: (ownerUrl: string) => Promise<void>;
  /** Whether a development signing key may be generated when none is set (never in production). */
  developmentKey: boolean;
  /**
   * Create (once) and use the database's own service login when GATEHOUSE_APP_DATABASE_URL is
   * not set; always so on the embedded database, whose owner is this machine's.
   */
  provisionLogin?: boolean;
  /** Told the served URL and the owner connection string once the server listens. */
  announce: (url: string, databaseUrl: string) => void | Promise<void>;
  /** Folder of the built browser app served at `/`. */
  webRoot?: string;
}

/**
 * Listening from the start: a signal during start-up is kept and honoured once the server is up.
 * A signal lost on its way from npm counts too (see watchParent).
 */
const shutdownSignal = () =>
  new Promise<NodeJS.Signals>((resolve) => {
    ownShutdownSignals();
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
    watchParent(resolve);
  });

/** The API's port and the metrics' own (when set) are free, and never one port: metrics stay off the public API. */
async function assertPortsFree({ PORT, GATEHOUSE_METRICS_PORT: metricsPort, HOST }: Environment): Promise<void> {
  if (metricsPort === PORT && PORT !== 0) throw new ConfigError(`GATEHOUSE_METRICS_PORT must differ from PORT (${PORT}): metrics are never served on the API's port.`);
  await assertPortFree(PORT, HOST);
  if (metricsPort !== undefined) await assertPortFree(metricsPort, HOST, 'GATEHOUSE_METRICS_PORT');
}

/**
 * Checks everything it can before listening (environment, port, database, schema), serves until
 * SIGTERM or SIGINT, then shuts down in order: stop accepting, let running requests finish
 * within the grace period, close the pool, flush the request log, stop the embedded cluster.
 */
export async function runServer(options: RunOptions, env: Environment = readEnvironment()): Promise<void> {
  const stopping = shutdownSignal();
  await assertPortsFree(env);
  const target = await openDatabaseTarget(env);
  const stopTracing = await startTracing();
  try {
    const secretKey = await signingKey(env, options.developmentKey || target.embedded);
    await options.prepare?.(target.ownerUrl);
    await assertMigrated(target.ownerUrl, { dir: options.app.migrations });
    const database = await serviceDatabase(env, target, {
      provisionLogin: options.provisionLogin === true || target.embedded,
      home: gatehouseHome(env),
    });
    const server = await createServer({ ...envConfig(env, database, secretKey, options.app), webRoot: options.webRoot, tracing: stopTracing !== null });
    try {
      const url = await server.listen({ port: env.PORT, host: env.HOST }).catch((error: unknown) => {
        throw portError(error, env.PORT);
      });
      await options.announce(url, target.ownerUrl);
      if (server.metricsUrl) console.log(`Metrics for Prometheus at ${server.metricsUrl}`);
      const signal = await stopping;
      console.log(`Received ${signal}, shutting down (grace period ${env.GATEHOUSE_SHUTDOWN_GRACE} s).`);
    } finally {
      await server.close({ graceMs: env.GATEHOUSE_SHUTDOWN_GRACE * 1000 });
    }
  } finally {
    // After the server closed: the spans of its last requests are exported before the process ends.
    await stopTracing?.();
    await target.stop();
  }
}
