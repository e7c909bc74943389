import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { appLoginExists, provisionAppLogin } from '../db/app-login.js';
import { roleUrl } from '../db/role-url.js';

/**
 * One service login per database (roles are cluster-wide, several Gatehouse databases may share
 * a cluster): `svc_` and the database name, in the characters a role name may use.
 */
export function serviceLoginName(ownerConnectionString: string): string {
  const database = decodeURIComponent(new URL(ownerConnectionString).pathname.slice(1)) || 'postgres';
  return `svc_${database.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, 63);
}

/**
 * The connection string of the database's service login, a member of gatehouse_app only. It is
 * created once, with a generated password kept in `home` (mode 0600); later starts reuse both. A
 * login without its password file gets a new password.
 */
export async function serviceLoginUrl(ownerConnectionString: string, home: string): Promise<string> {
  const role = serviceLoginName(ownerConnectionString);
  const file = join(home, `${role}.password`);
  if (existsSync(file) && (await appLoginExists(ownerConnectionString, role))) {
    return roleUrl(ownerConnectionString, role, (await readFile(file, 'utf8')).trim());
  }
  const login = await provisionAppLogin(ownerConnectionString, role).catch((error: { code?: string }) => {
    if (error.code !== '42501') throw error;
    throw new Error(`Cannot create the service login ${role}: the owner may not create roles. Create one as a role that may (\`gatehouse app-login <role>\`) and set GATEHOUSE_APP_DATABASE_URL to it.`);
  });
  const password = login.generatedPassword!;
  await mkdir(home, { recursive: true });
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  console.log(`${login.created ? 'Created' : 'Gave a new password to'} the service login ${role} (member of gatehouse_app only); its password is kept in ${file}.`);
  return roleUrl(ownerConnectionString, role, password);
}
