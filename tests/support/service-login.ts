import type { DatabaseOptions } from '../../server/db/connection/database.js';
import { serviceLoginName } from '../../server/cli/service-login.js';
import { provisionAppLogin } from '../../server/db/logins/app-login.js';
import { roleUrl } from '../../server/db/logins/role-url.js';

/**
 * The database's service login as `gatehouse start` provisions it (serviceLoginUrl): the same
 * name, the same provisioning, a generated password. The password stays in memory instead of a
 * file under the Gatehouse home, which is the one step left out: a test database lives for one
 * file and is dropped with its login.
 */
export async function provisionServiceLogin(ownerUrl: string): Promise<string> {
  const role = serviceLoginName(ownerUrl);
  const { generatedPassword } = await provisionAppLogin(ownerUrl, role);
  return roleUrl(ownerUrl, role, generatedPassword!);
}

/** What `gatehouse start` hands createServer (serviceDatabase): the service login, no role switch at startup. */
export function asServiceLogin(serviceUrl: string, maxConnections: number): DatabaseOptions {
  return { connectionString: serviceUrl, startupRole: false, maxConnections };
}
