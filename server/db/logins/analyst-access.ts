import type pg from 'pg';
import { ANALYST_ROLE } from '../connection/database.js';
import { ExistingRoleError } from './existing-role-error.js';
import { assertPassword, assertRoleName, createLoginRole, generatePassword, grantDatabaseConnect, grantGroupRole, inspectLoginRole, revokeDatabaseConnect } from './login-role.js';
import { MissingRoleError } from './missing-role-error.js';
import { inOwnerTransaction } from '../transactions/owner-transaction.js';
import { UnknownOrganizationError } from './unknown-organization-error.js';

export interface AnalystGrantRequest {
  /** The analyst's LOGIN role: the role it authenticates as. */
  role: string;
  organizationSlug: string;
  /** Create the login role; fails when it exists. */
  create?: boolean;
  /** Password for a created role; generated when left out. */
  password?: string;
}

export interface AnalystGrant {
  organizationId: number;
  created: boolean;
  /** The password of a role created without one: shown to the operator once, stored nowhere. */
  generatedPassword: string | null;
}

/** The analytics views first (sql/012_analyst_columns.sql), then the tables, for queries naming columns. */
export const ANALYST_SEARCH_PATH = 'analytics, public';

/**
 * The connections one analyst login may hold at once, as sql/027_analyst_connection_limit.sql gave
 * the analysts before it: a BI tool's pool, never every slot of the cluster the service needs.
 */
export const ANALYST_CONNECTION_LIMIT = 10;

async function organizationId(client: pg.ClientBase, slug: string): Promise<number> {
  const { rows } = await client.query<{ id: number }>('SELECT id FROM organizations WHERE slug = $1', [slug]);
  if (!rows[0]) throw new UnknownOrganizationError(slug);
  return rows[0].id;
}

/** Limits an unlimited login to ANALYST_CONNECTION_LIMIT; a limit the operator chose stays. */
async function limitConnections(client: pg.ClientBase, role: string): Promise<void> {
  const { rows } = await client.query<{ unlimited: boolean }>('SELECT rolconnlimit = -1 AS unlimited FROM pg_roles WHERE rolname = $1', [role]);
  if (rows[0]?.unlimited) await client.query(`ALTER ROLE ${client.escapeIdentifier(role)} CONNECTION LIMIT ${ANALYST_CONNECTION_LIMIT}`);
}

/**
 * Lets an analyst read one more organization. The role is made a member of gatehouse_analyst
 * (created first when asked) and may connect to this database; roles that could reach past the
 * analysts' policies are refused.
 */
export async function grantAnalystAccess(ownerConnectionString: string, request: AnalystGrantRequest): Promise<AnalystGrant> {
  assertRoleName(request.role);
  if (request.password !== undefined) assertPassword(request.password);
  return inOwnerTransaction(ownerConnectionString, async (client) => {
    const id = await organizationId(client, request.organizationSlug);
    const exists = await inspectLoginRole(client, request.role, ANALYST_ROLE);
    let generatedPassword: string | null = null;
    if (request.create) {
      if (exists) throw new ExistingRoleError(request.role);
      const password = request.password ?? generatePassword();
      await createLoginRole(client, request.role, password, ANALYST_ROLE);
      if (request.password === undefined) generatedPassword = password;
    } else {
      if (!exists) throw new MissingRoleError(request.role);
      await grantGroupRole(client, request.role, ANALYST_ROLE);
    }
    // `SELECT * FROM posts` then reads analytics.posts, the view without the hidden columns.
    await client.query(`ALTER ROLE ${client.escapeIdentifier(request.role)} SET search_path = ${ANALYST_SEARCH_PATH}`);
    await limitConnections(client, request.role);
    await client.query('INSERT INTO analyst_grants (role_name, organization_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      request.role,
      id,
    ]);
    await grantDatabaseConnect(client, request.role);
    return { organizationId: id, created: Boolean(request.create), generatedPassword };
  });
}

/** Withdraws one organization from an analyst; false when it had no access to it. */
export async function revokeAnalystAccess(ownerConnectionString: string, role: string, organizationSlug: string): Promise<boolean> {
  assertRoleName(role);
  return inOwnerTransaction(ownerConnectionString, async (client) => {
    const id = await organizationId(client, organizationSlug);
    const { rowCount } = await client.query('DELETE FROM analyst_grants WHERE role_name = $1 AND organization_id = $2', [role, id]);
    // With its last organization here goes its way into this database.
    const { rows } = await client.query<{ last: boolean }>(
      'SELECT NOT EXISTS (SELECT 1 FROM analyst_grants WHERE role_name = $1) AND EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1) AS last',
      [role],
    );
    if (rows[0]?.last) await revokeDatabaseConnect(client, role);
    return (rowCount ?? 0) > 0;
  });
}

export interface AnalystAccess {
  role: string;
  organizations: string[];
}

/** Every analyst of this database with the organizations it may read. */
export function listAnalysts(ownerConnectionString: string): Promise<AnalystAccess[]> {
  return inOwnerTransaction(ownerConnectionString, async (client) => {
    const { rows } = await client.query<AnalystAccess>(
      `SELECT a.role_name AS role, array_agg(o.slug ORDER BY o.slug) AS organizations
       FROM analyst_grants a JOIN organizations o ON o.id = a.organization_id GROUP BY a.role_name ORDER BY a.role_name`,
    );
    return rows;
  });
}

/**
 * Takes every organization of this database from an analyst, and its CONNECT with them; the
 * login role itself is the cluster's, and stays. False when it had no access here.
 */
export function removeAnalyst(ownerConnectionString: string, role: string): Promise<boolean> {
  assertRoleName(role);
  return inOwnerTransaction(ownerConnectionString, async (client) => {
    const { rowCount } = await client.query('DELETE FROM analyst_grants WHERE role_name = $1', [role]);
    const { rows } = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    if (rows.length > 0) await revokeDatabaseConnect(client, role);
    return (rowCount ?? 0) > 0;
  });
}
