import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { provisionAppLogin } from '../db/logins/app-login.js';
import { roleUrl } from '../db/logins/role-url.js';
import { gatehouseCommand } from '../errors/gatehouse-command.js';

/**
 * One service login per database (roles are cluster-wide, several Gatehouse databases may share
 * a cluster): `svc_` and the database name, in the characters a role name may use.
 */
export function serviceLoginName(ownerConnectionString: string): string {
  const database = decodeURIComponent(new URL(ownerConnectionString).pathname.slice(1)) || 'postgres';
  return `svc_${database.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, 63);
}

/**
 * Where the login's password is kept: per cluster (host and port) and database, so a folder that
 * switches between DATABASE_URL and the embedded cluster keeps one password for each.
 */
export function servicePasswordFile(ownerConnectionString: string, home: string): string {
  const url = new URL(ownerConnectionString);
  const cluster = `${url.hostname}-${url.port || '5432'}`;
  const database = decodeURIComponent(url.pathname.slice(1)) || 'postgres';
  return join(home, 'service-logins', encodeURIComponent(cluster), `${encodeURIComponent(database)}.password`);
}

// The login is missing, its password is not the stored one, or it may not connect here.
const REFUSED = new Set(['28P01', '28000', '42501']);

async function loginAccepted(connectionString: string): Promise<boolean> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return true;
  } catch (error) {
    if (REFUSED.has((error as { code?: string }).code ?? '')) return false;
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

async function storedPassword(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').then((text) => text.trim(), () => undefined);
}

/**
 * The connection string of the database's service login, a member of gatehouse_app only. It is
 * created once, with a generated password kept in `home` (mode 0600); later starts reuse both.
 * A login without its password file, or one the database refuses with it (the password was
 * changed, the login dropped, CONNECT revoked), gets a new password from the owner.
 */
export async function serviceLoginUrl(ownerConnectionString: string, home: string): Promise<string> {
  const role = serviceLoginName(ownerConnectionString);
  const file = servicePasswordFile(ownerConnectionString, home);
  const stored = await storedPassword(file);
  if (stored !== undefined && (await loginAccepted(roleUrl(ownerConnectionString, role, stored)))) return roleUrl(ownerConnectionString, role, stored);
  const login = await provisionAppLogin(ownerConnectionString, role).catch((error: { code?: string }) => {
    if (error.code !== '42501') throw error;
    throw new Error(`Cannot create the service login ${role}: the owner may not create roles. Create one as a role that may (\`${gatehouseCommand('app-login <role>')}\`) and set GATEHOUSE_APP_DATABASE_URL to it.`);
  });
  const password = login.generatedPassword!;
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  console.log(`${login.created ? 'Created' : 'Gave a new password to'} the service login ${role} (member of gatehouse_app only); its password is kept in ${file}.`);
  return roleUrl(ownerConnectionString, role, password);
}
