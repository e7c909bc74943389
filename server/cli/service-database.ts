import type { DatabaseOptions } from '../db/connection/database.js';
import type { DatabaseTarget } from './database-target.js';
import type { Environment } from './environment.js';
import { serviceLoginUrl } from './service-login.js';

export interface ServiceDatabaseOptions {
  /** Create (once) and use the database's own service login when no service URL is given. */
  provisionLogin: boolean;
  home: string;
}

/**
 * The connection the service serves on: GATEHOUSE_APP_DATABASE_URL, else the database's own
 * service login (created on first use) when allowed to make one, else the owner's. createServer
 * checks the login it is given (checkServiceLogin) and refuses the owner unless allowed.
 */
export async function serviceDatabase(env: Environment, target: DatabaseTarget, options: ServiceDatabaseOptions): Promise<DatabaseOptions> {
  const given = env.GATEHOUSE_APP_DATABASE_URL;
  const connectionString = given || (options.provisionLogin ? await serviceLoginUrl(target.ownerUrl, options.home) : target.ownerUrl);
  // A login that holds gatehouse_app alone needs no role switch (and a pooler would refuse one).
  return { connectionString, startupRole: false };
}
