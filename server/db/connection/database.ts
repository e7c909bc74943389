import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Schema } from '../schema.js';
import { styleCheckingClient } from './style-checking-client.js';
import { statementClient, type StatementObserver } from './statement-client.js';
import { connectionHosts } from './connection-hosts.js';
import { PrimaryLocator } from './primary-locator.js';
import { primaryFollowingClient } from './primary-following-client.js';
import { ROW_TYPES } from './row-types.js';

export const APP_ROLE = 'gatehouse_app';

// A request waits at most this long for a connection: during an outage it answers 503 in time
// instead of queueing behind connection attempts that never finish.
export const CONNECT_TIMEOUT_MS = 3_000;
export const ANALYST_ROLE = 'gatehouse_analyst';

/** The pool's size unless configured. */
export const DEFAULT_MAX_CONNECTIONS = 10;

/** S: the tables the caller queries; an application adds its own to the core's Schema. */
export interface Database<S = Schema> {
  readonly db: Kysely<S>;
  /** Waits for the connections in use to come back, unless `force` ends them at once and returns. */
  close(options?: { force?: boolean }): Promise<void>;
  /**
   * Drops every open connection's socket at once, failing the statements waiting on them: for a
   * server that stopped answering, which would never answer them nor a polite goodbye.
   */
  cut(): void;
  /** The pool's connections now: open, idle, and requests waiting for one. */
  connections(): PoolConnections;
}

export interface PoolConnections {
  total: number;
  idle: number;
  waiting: number;
}

export interface DatabaseOptions {
  connectionString: string;
  /** Pool size; each request holds one connection for its transaction. */
  maxConnections?: number;
  /**
   * Ask for gatehouse_app in each connection's startup packet; default true. PgBouncer does not
   * forward it (it refuses the connection): through a pooler, connect as a dedicated service
   * login, which holds gatehouse_app and nothing else, and set this false.
   */
  startupRole?: boolean;
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
 * Opens the service's pool. Every connection runs as the unprivileged gatehouse_app role (or as a
 * login that holds nothing else), so row-level security applies even when the URL names the owner.
 */
export function openDatabase<S = Schema>(
  { connectionString, maxConnections = DEFAULT_MAX_CONNECTIONS, startupRole = true, preparedStatements = true }: DatabaseOptions,
  observer?: StatementObserver,
): Database<S> {
  const login = (url: string) => (startupRole ? appConnectionString(url) : url);
  // Several hosts: the pool follows whichever is the primary, as a failover tool promotes one.
  const hosts = connectionHosts(connectionString)?.map(({ target, url }) => ({ target, url: login(url) }));
  const Client = styleCheckingClient(statementClient({ prepare: preparedStatements, observer }));
  const pool = new pg.Pool({
    connectionString: hosts ? hosts[0]!.url : login(connectionString),
    max: maxConnections,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    Client: hosts ? primaryFollowingClient(Client, new PrimaryLocator(hosts)) : Client,
    types: ROW_TYPES,
  });
  // An idle client losing its server (restart, network) must not crash the process.
  pool.on('error', () => {});
  // Nor may a checked-out one, which has no pool listener: its 'error' event (even one raised
  // between the socket dying and the pool noticing) would be uncaught. Ending the client fails
  // whatever is still queued on it (the service answers 503) and never lets it run another query.
  pool.on('connect', (client) => client.on('error', () => void client.end().catch(() => {})));
  const open = new Set<pg.PoolClient>();
  pool.on('connect', (client) => open.add(client));
  pool.on('remove', (client) => open.delete(client));
  const db = new Kysely<S>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    connections: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close({ force = false } = {}) {
      const destroyed = db.destroy();
      if (!force) return destroyed;
      // The pool ends only once every connection is back, and a request cut at the end of the
      // grace period may hold one for as long as its handler runs: end those connections under
      // it (its queries fail) and let the pool finish in the background.
      for (const client of open) void client.end().catch(() => {});
      destroyed.catch(() => {});
    },
    cut() {
      // pg has no public way to drop a connection without the server's answer to its Terminate.
      for (const client of open) (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    },
  };
}
