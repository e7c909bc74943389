import { join } from 'node:path';
import type { GatehouseConfig } from '../config/gatehouse-config.js';
import { createServer } from '../create-server.js';
import { openDatabaseTarget } from './database-target.js';
import { envConfig } from './env-config.js';
import { signingKey } from './signing-key.js';

export interface RunOptions {
  /** The application served. */
  app: GatehouseConfig;
  /** Runs on the owner connection before the server starts (migrations, seeds). */
  prepare?: (ownerUrl: string) => Promise<void>;
  announce: (url: string) => void;
  /** Folder of the built browser app served at `/`. */
  webRoot?: string;
}

const shutdownSignal = () =>
  new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });

/**
 * Serves until SIGTERM or SIGINT, then shuts down in order: stop accepting and finish running
 * requests, close the pool, stop the embedded cluster.
 */
export async function runServer(options: RunOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const target = await openDatabaseTarget(env);
  try {
    await options.prepare?.(target.ownerUrl);
    const home = env.GATEHOUSE_HOME ?? join(process.cwd(), '.gatehouse');
    const config = envConfig(env, target.ownerUrl, await signingKey(env, home, target.embedded), options.app);
    const server = await createServer({ ...config, webRoot: options.webRoot });
    try {
      options.announce(await server.listen({ port: Number(env.PORT ?? 3000), host: env.HOST || undefined }));
      console.log(`Received ${await shutdownSignal()}, shutting down.`);
    } finally {
      await server.close();
    }
  } finally {
    await target.stop();
  }
}
