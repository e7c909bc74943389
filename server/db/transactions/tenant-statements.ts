import type { ConnectionProvider, Kysely } from 'kysely';
import { kyselyOn } from '../connection/connection-kysely.js';
import type { Schema } from '../schema.js';
import type { TenantTransaction } from './tenant-transaction.js';

/** What a planner refuses: a statement planned for a tenant transaction runs in it, never on the pool. */
export class PlannedStatementError extends Error {
  constructor() {
    super('Statements planned for a tenant transaction are only compiled here: send them in that transaction (read-ahead.ts).');
  }
}

const NO_CONNECTION: ConnectionProvider = {
  provideConnection: () => Promise.reject(new PlannedStatementError()),
};

/** Each pool's planner, made on first use: a read-ahead plans with it on every request. */
const planners = new WeakMap<object, TenantTransaction>();

/**
 * A Kysely that compiles the statements of a tenant transaction not yet open (a read-ahead's,
 * sent with its opening), with the pool's compiler and plugins, and runs none: on the pool, outside
 * any tenant context, such a statement would read as nobody and answer as if nothing existed.
 */
export function tenantStatements(db: Kysely<Schema>): TenantTransaction {
  const executor = db.getExecutor();
  let planner = planners.get(executor);
  if (!planner) planners.set(executor, (planner = kyselyOn<Schema>(executor.withConnectionProvider(NO_CONNECTION)) as TenantTransaction));
  return planner;
}
