import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Schema } from './schema.js';

export const APP_ROLE = 'gatehouse_app';

export interface Database {
  readonly db: Kysely<Schema>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  connectionString: string;
  /** Pool size; each request holds one connection for its transaction. */
  maxConnections?: number;
}

/**
 * Opens the service's pool. Every connection switches to the unprivileged gatehouse_app role
 * before its first query, so row-level security applies even when the URL names the owner.
 */
export function openDatabase({ connectionString, maxConnections = 10 }: DatabaseOptions): Database {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  pool.on('connect', (client) => {
    client.query(`SET ROLE ${APP_ROLE}`).catch((error: unknown) => client.emit('error', error));
  });
  // An idle client losing its server (restart, network) must not crash the process.
  pool.on('error', () => {});
  // Nor may a checked-out one, which has no pool listener: its 'error' event (even one raised
  // between the socket dying and the pool noticing) would be uncaught. Ending the client fails
  // whatever is still queued on it (the service answers 503) and never lets it run another query.
  pool.on('connect', (client) => client.on('error', () => void client.end().catch(() => {})));
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  return { db, close: () => db.destroy() };
}
