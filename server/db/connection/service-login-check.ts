import type { Logger } from 'pino';
import { ConfigError } from '../../errors/config-error.js';
import { isDatabaseUnavailable } from './database-unavailable.js';
import type { DatabaseOptions } from './database.js';
import { inspectServiceConnection } from './service-connection.js';
import { unreadableStyles } from './session-styles.js';
import { gatehouseCommand } from '../../errors/gatehouse-command.js';

const SERVICE_LOGIN_ADVICE = `Set GATEHOUSE_APP_DATABASE_URL to a service login (\`${gatehouseCommand('app-login <role>')}\` creates one)`;
const ALLOW_ADVICE = 'or GATEHOUSE_ALLOW_OWNER_CONNECTION=true to serve as it anyway (createServer: `allowOwnerConnection: true`)';

/**
 * The connection the service may serve on. A login that could leave gatehouse_app (superuser,
 * owner, BYPASSRLS, other roles) is refused unless `allowOwner`, and warned about at every start
 * when it is; it then asks for gatehouse_app on every connection, so row-level security applies
 * unless SQL leaves the role. A login whose sessions write dates or intervals in a style the
 * service cannot read is refused too. A database that cannot be reached now is /api/ready's to report:
 * the login is not checked, and every connection asks for gatehouse_app, failing closed. `server`
 * names it in that warning: a read replica's outage is no reason to look at the primary.
 */
export async function checkServiceLogin(options: DatabaseOptions, allowOwner: boolean, logger: Logger, server = 'the database'): Promise<DatabaseOptions> {
  const login = await inspectServiceConnection(options.connectionString).catch((error: unknown) => {
    if (isDatabaseUnavailable(error)) return null;
    throw error;
  });
  if (login === null) {
    logger.warn(`${server} cannot be reached: its login is not checked, every connection asks for gatehouse_app`);
    return { ...options, startupRole: true };
  }
  const styles = unreadableStyles(login.role, login.styles);
  if (styles !== null) throw new ConfigError(styles);
  if (!login.holdsAppRole) {
    throw new ConfigError(`The service login ${login.role} is not a member of gatehouse_app: \`${gatehouseCommand(`app-login ${login.role}`)}\` makes it one.`);
  }
  if (login.excess.length === 0) return options;
  const risk = `${login.role}: ${login.excess.join(', ')}. SQL that reached the database (an injection) could leave gatehouse_app and row-level security with it`;
  if (!allowOwner) throw new ConfigError(`Refusing to serve as ${risk}. ${SERVICE_LOGIN_ADVICE}, ${ALLOW_ADVICE}.`);
  logger.warn(`Warning: serving as ${risk}. ${SERVICE_LOGIN_ADVICE}.`);
  return { ...options, startupRole: true };
}
