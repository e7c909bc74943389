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
  const pool = new pg.Pool({
    connectionString,
    max: maxConnections,
    // The pool hands a new client out only after this succeeds; on failure the client is
    // discarded and the acquirer gets the error, so no query ever runs as the owner.
    verify: (client, done) => {
      client.query(`SET ROLE ${APP_ROLE}`).then(() => done(), done);
    },
  });
  // A checked-out client has no pool listener; if its server goes away (even between the socket
  // dying and the pool noticing), its 'error' event would crash the process. Its queries fail on
  // their own, which is where the service answers 503.
  pool.on('connect', (client) => client.on('error', () => {}));
  // An idle client losing its server (restart, network) must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  return { db, close: () => db.destroy() };
}
