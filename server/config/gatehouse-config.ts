import type { DatabaseOptions } from '../db/connection/database.js';
import type { ServerConfig } from './server-config.js';

/**
 * What `gatehouse.config.ts` exports: the `createServer` options of one application, plus its
 * migrations folder and seed. The connection and the token key may come from the environment
 * instead (`DATABASE_URL`, `GATEHOUSE_PASETO_SECRET_KEY`), so both are optional here.
 */
export interface GatehouseConfig extends Omit<ServerConfig, 'database' | 'tokens' | 'routeGroups'> {
  database?: Partial<DatabaseOptions>;
  tokens?: Partial<ServerConfig['tokens']>;
  /** Default: one `tenant` group, `/{organization}/...`, serving every registered model. */
  routeGroups?: ServerConfig['routeGroups'];
  /** The application's migrations folder, applied after the core's; relative to the config file. */
  migrations?: string;
  /** Where `gatehouse policy test` finds `*.policy.yaml` files by default; relative to the config file. */
  policyTests?: string;
  /** Fills a freshly migrated database (`gatehouse seed`); true when it wrote something. */
  seed?: (ownerConnectionString: string) => Promise<boolean>;
}

/** Types a config file's export; validation happens when the CLI loads it. */
export function defineConfig(config: GatehouseConfig): GatehouseConfig {
  return config;
}
