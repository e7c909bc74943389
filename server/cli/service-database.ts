import type { DatabaseOptions } from '../db/database.js';
import { inspectServiceConnection } from '../db/service-connection.js';
import type { DatabaseTarget } from './database-target.js';
import type { Environment } from './environment.js';
import { serviceLoginUrl } from './service-login.js';

export const APP_DATABASE_URL_ENV = 'GATEHOUSE_APP_DATABASE_URL';
export const ALLOW_OWNER_ENV = 'GATEHOUSE_ALLOW_OWNER_CONNECTION';

export interface ServiceDatabaseOptions {
  /** Create (once) and use the database's own service login when no service URL is given. */
  provisionLogin: boolean;
  /** Serve over a superuser or owner connection anyway, with a warning. */
  allowOwner: boolean;
  home: string;
}

/**
 * The connection the service serves on: GATEHOUSE_APP_DATABASE_URL, else the database's own
 * service login (created on first use) when allowed to make one, else the owner's, which is then
 * refused. A login that could leave gatehouse_app (superuser, owner, BYPASSRLS, other roles) is
 * refused unless explicitly allowed, and warned about at every start when it is.
 */
export async function serviceDatabase(env: Environment, target: DatabaseTarget, options: ServiceDatabaseOptions): Promise<DatabaseOptions> {
  const given = env.GATEHOUSE_APP_DATABASE_URL;
  const connectionString = given || (options.provisionLogin ? await serviceLoginUrl(target.ownerUrl, options.home) : target.ownerUrl);
  const login = await inspectServiceConnection(connectionString);
  if (!login.holdsAppRole) {
    throw new Error(`The service login ${login.role} is not a member of gatehouse_app: \`gatehouse app-login ${login.role}\` makes it one.`);
  }
  if (login.excess.length === 0) return { connectionString, startupRole: false };
  const risk = `${login.role}: ${login.excess.join(', ')}. SQL that reached the database (an injection) could leave gatehouse_app and row-level security with it`;
  if (!options.allowOwner) {
    throw new Error(
      `Refusing to serve as ${risk}. Set ${APP_DATABASE_URL_ENV} to a service login (\`gatehouse app-login <role>\` creates one), or ${ALLOW_OWNER_ENV}=true to serve as it anyway.`,
    );
  }
  console.warn(`Warning: serving as ${risk}. Set ${APP_DATABASE_URL_ENV} to a service login (\`gatehouse app-login <role>\`).`);
  // The owner keeps asking for gatehouse_app at startup, as before: RLS applies unless SQL leaves the role.
  return { connectionString, startupRole: true };
}
