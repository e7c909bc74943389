import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { ANALYST_ROLE, APP_ROLE } from '../connection/database.js';
import { InvalidPasswordError } from './invalid-password-error.js';
import { scramVerifier } from './scram-verifier.js';
import { UnsafeRoleError } from './unsafe-role-error.js';

/** The two group roles a login can be given; each must stay the only one a login holds. */
export type GroupRole = typeof APP_ROLE | typeof ANALYST_ROLE;

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertRoleName(role: string): void {
  if (!ROLE_NAME.test(role) || role.startsWith('pg_') || role.startsWith('gatehouse_')) {
    throw new UnsafeRoleError(role, 'use lower-case letters, digits and underscores, not starting with pg_ or gatehouse_');
  }
}

// Printable ASCII keeps the client-side SCRAM verifier identical to the server's (SASLprep is
// the identity there).
export function assertPassword(password: string): void {
  if (!/^[\x20-\x7e]{12,}$/.test(password)) throw new InvalidPasswordError();
}

export function generatePassword(): string {
  return randomBytes(24).toString('base64url');
}

interface RoleFacts {
  rolsuper: boolean;
  rolbypassrls: boolean;
  rolcreaterole: boolean;
  rolcanlogin: boolean;
  memberships: string[];
}

/**
 * Whether the login role exists; throws when giving it `group` would hand out more than that
 * group's access. Any other membership could be SET ROLE'd into and is refused: a login holding
 * both groups would get the union of the app's and the analysts' policies.
 */
export async function inspectLoginRole(client: pg.ClientBase, role: string, group: GroupRole): Promise<boolean> {
  const { rows } = await client.query<RoleFacts>(
    `SELECT r.rolsuper, r.rolbypassrls, r.rolcreaterole, r.rolcanlogin,
       ARRAY(SELECT g.rolname::text FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid WHERE m.member = r.oid) AS memberships
     FROM pg_roles r WHERE r.rolname = $1`,
    [role],
  );
  const facts = rows[0];
  if (!facts) return false;
  if (facts.rolsuper || facts.rolbypassrls) throw new UnsafeRoleError(role, 'it bypasses row-level security');
  if (facts.rolcreaterole) throw new UnsafeRoleError(role, 'it can create and grant roles');
  if (!facts.rolcanlogin) throw new UnsafeRoleError(role, 'it cannot log in, and access follows the role that logs in');
  const others = facts.memberships.filter((membership) => membership !== group);
  if (others.length > 0) throw new UnsafeRoleError(role, `it is a member of ${others.join(', ')}, and may only be one of ${group}`);
  return true;
}

/** Creates a login that holds `group`'s privileges and nothing else. */
export async function createLoginRole(client: pg.ClientBase, role: string, password: string, group: GroupRole): Promise<void> {
  await client.query(
    `CREATE ROLE ${client.escapeIdentifier(role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS INHERIT
       PASSWORD ${client.escapeLiteral(scramVerifier(password))} IN ROLE ${client.escapeIdentifier(group)}`,
  );
}

export async function setLoginPassword(client: pg.ClientBase, role: string, password: string): Promise<void> {
  await client.query(`ALTER ROLE ${client.escapeIdentifier(role)} PASSWORD ${client.escapeLiteral(scramVerifier(password))}`);
}

/** The `statement_timeout` every session of the login starts with; a transaction may still set its own. */
export async function setLoginStatementTimeout(client: pg.ClientBase, role: string, milliseconds: number): Promise<void> {
  if (!Number.isSafeInteger(milliseconds) || milliseconds <= 0) throw new TypeError(`Not a statement timeout: ${milliseconds}`);
  await client.query(`ALTER ROLE ${client.escapeIdentifier(role)} SET statement_timeout = ${milliseconds}`);
}

export async function grantGroupRole(client: pg.ClientBase, role: string, group: GroupRole): Promise<void> {
  const { rows } = await client.query<{ member: boolean }>("SELECT pg_has_role($1, $2, 'MEMBER') AS member", [role, group]);
  if (!rows[0]?.member) await client.query(`GRANT ${client.escapeIdentifier(group)} TO ${client.escapeIdentifier(role)}`);
}

async function currentDatabase(client: pg.ClientBase): Promise<string> {
  const { rows } = await client.query<{ name: string }>('SELECT current_database() AS name');
  return client.escapeIdentifier(rows[0]!.name);
}

/**
 * Lets `role` connect to the current database, where only its own logins may: PUBLIC's CONNECT
 * is revoked here too (a database copied from a template does not inherit the template's revoke).
 */
export async function grantDatabaseConnect(client: pg.ClientBase, role: string): Promise<void> {
  const database = await currentDatabase(client);
  await client.query(`REVOKE CONNECT ON DATABASE ${database} FROM PUBLIC`);
  await client.query(`GRANT CONNECT ON DATABASE ${database} TO ${client.escapeIdentifier(role)}`);
}

export async function revokeDatabaseConnect(client: pg.ClientBase, role: string): Promise<void> {
  await client.query(`REVOKE CONNECT ON DATABASE ${await currentDatabase(client)} FROM ${client.escapeIdentifier(role)}`);
}
