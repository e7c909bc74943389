import pg from 'pg';
import { APP_ROLE } from './database.js';
import { connectionHosts } from './connection-hosts.js';
import { isDatabaseUnavailable } from './database-unavailable.js';
import type { SessionStyles } from './session-styles.js';

/** What the role a connection string logs in as could do beyond the service's own role. */
export interface ServiceConnection {
  role: string;
  /** Reasons it is more than a service login; empty for a login that holds gatehouse_app only. */
  excess: string[];
  /** Whether it holds gatehouse_app's privileges at all. */
  holdsAppRole: boolean;
  /** How its sessions write dates and intervals, from the database's and the role's defaults. */
  styles: SessionStyles;
}

interface RoleFacts {
  role: string;
  rolsuper: boolean;
  rolbypassrls: boolean;
  rolcreaterole: boolean;
  holds_app_role: boolean;
  owns_objects: boolean;
  other_roles: string[];
  date_style: string;
  interval_style: string;
}

/**
 * Connects as the service would (no role requested) and asks what that login may do. A login
 * that may become the owner, bypass row-level security or switch to any other role makes every
 * policy a suggestion: SQL that reached the server (an injection) could leave gatehouse_app.
 */
export async function inspectServiceConnection(connectionString: string): Promise<ServiceConnection> {
  const client = await firstAnswering(connectionString);
  try {
    const { rows } = await client.query<RoleFacts>(
      `SELECT r.rolname::text AS role, r.rolsuper, r.rolbypassrls, r.rolcreaterole,
         pg_has_role(session_user, $1, 'USAGE') AS holds_app_role,
         pg_has_role(session_user, (SELECT datdba FROM pg_database WHERE datname = current_database()), 'MEMBER')
           OR EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND pg_has_role(session_user, c.relowner, 'MEMBER')) AS owns_objects,
         ARRAY(SELECT g.rolname::text FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid WHERE m.member = r.oid AND g.rolname <> $1 ORDER BY 1) AS other_roles,
         current_setting('DateStyle') AS date_style, current_setting('IntervalStyle') AS interval_style
       FROM pg_roles r WHERE r.rolname = session_user`,
      [APP_ROLE],
    );
    const facts = rows[0]!;
    const excess = [
      facts.rolsuper && 'it is a superuser',
      facts.rolbypassrls && 'it bypasses row-level security',
      facts.owns_objects && 'it owns the database or its tables (the migrating role)',
      facts.rolcreaterole && 'it can create and grant roles',
      facts.other_roles.length > 0 && `it can switch to ${facts.other_roles.join(', ')}`,
    ].filter((reason): reason is string => typeof reason === 'string');
    return { role: facts.role, excess, holdsAppRole: facts.holds_app_role, styles: { dateStyle: facts.date_style, intervalStyle: facts.interval_style } };
  } finally {
    await client.end();
  }
}

/**
 * A connection to the first host that answers, as libpq tries a host list in order: after a
 * failover the first host may be gone for good, and every host has the same logins.
 */
async function firstAnswering(connectionString: string): Promise<pg.Client> {
  const urls = connectionHosts(connectionString)?.map(({ url }) => url) ?? [connectionString];
  const failures: unknown[] = [];
  for (const url of urls) {
    // As long as the pool waits for a connection: a database that does not answer is unavailable.
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      return client;
    } catch (error) {
      failures.push(error);
      await client.end().catch(() => {});
    }
  }
  // A host that answered and refused (a wrong password) says more than one that is down.
  throw failures.find((failure) => !isDatabaseUnavailable(failure)) ?? failures.at(-1);
}
