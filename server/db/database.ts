import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Schema } from './schema.js';
import { statementClient } from './statement-client.js';

export const APP_ROLE = 'gatehouse_app';
export const ANALYST_ROLE = 'gatehouse_analyst';

/** S: the tables the caller queries; an application adds its own to the core's Schema. */
export interface Database<S = Schema> {
  readonly db: Kysely<S>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  connectionString: string;
  /** Pool size; each request holds one connection for its transaction. */
  maxConnections?: number;
  /**
   * Send statements with parameters as named prepared statements (default true). Turn off behind
   * a pooler in transaction mode that cannot carry them, such as PgBouncer before 1.21.
   */
  preparedStatements?: boolean;
}

/**
 * Asks the server to switch to gatehouse_app while it opens the session. Unlike a SET ROLE sent
 * after connecting, this fails the connection itself when the login may not use the role, so no
 * query can ever run with the login's own privileges, and RESET ROLE returns to gatehouse_app.
 */
export function appConnectionString(connectionString: string): string {
  const url = new URL(connectionString);
  const options = [url.searchParams.get('options'), `-c role=${APP_ROLE}`].filter(Boolean).join(' ');
  url.searchParams.set('options', options);
  return url.toString();
}

/**
 * Opens the service's pool. Every connection runs as the unprivileged gatehouse_app role, so
 * row-level security applies even when the URL names the owner.
 */
export function openDatabase<S = Schema>({ connectionString, maxConnections = 10, preparedStatements = true }: DatabaseOptions): Database<S> {
  const pool = new pg.Pool({
    connectionString: appConnectionString(connectionString),
    max: maxConnections,
    Client: statementClient({ prepare: preparedStatements }),
  });
  // An idle client losing its server (restart, network) must not crash the process.
  pool.on('error', () => {});
  // Nor may a checked-out one, which has no pool listener: its 'error' event (even one raised
  // between the socket dying and the pool noticing) would be uncaught. Ending the client fails
  // whatever is still queued on it (the service answers 503) and never lets it run another query.
  pool.on('connect', (client) => client.on('error', () => void client.end().catch(() => {})));
  const db = new Kysely<S>({ dialect: new PostgresDialect({ pool }) });
  return { db, close: () => db.destroy() };
}
