import type { Kysely } from 'kysely';
import { openDatabase } from '../connection/database.js';
import type { Schema } from '../schema.js';
import { enterTenant, type TenantContext, type TenantTransaction } from './tenant-transaction.js';

export interface AdministrationTransaction {
  /** The owner's own privileges: the shared tables the service may not write (roles). */
  readonly owner: Kysely<Schema>;
  /**
   * The same transaction as gatehouse_app in the context, from now on (again for another
   * context): organizations are readable by the service only, even to an owner that is not a
   * superuser, so finding one by slug takes a context without an organization first.
   */
  tenant(context: TenantContext): Promise<TenantTransaction>;
}

/**
 * Runs an operator's change (the CLI's administration commands) in one transaction on the
 * owner's connection: all of it is applied, or none of it. Writes to shared tables come first,
 * then `tenant()` gives up the owner's privileges for the organization's rows.
 */
export async function inAdministrationTransaction<T>(ownerConnectionString: string, fn: (admin: AdministrationTransaction) => Promise<T>): Promise<T> {
  const { db, close } = openDatabase({ connectionString: ownerConnectionString, maxConnections: 1, startupRole: false });
  try {
    return await db.transaction().execute((trx) => fn({ owner: trx, tenant: (context) => enterTenant(trx, context) }));
  } finally {
    await close();
  }
}
