import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from './schema.js';

export interface TenantContext {
  organizationId: number | null;
  userId: number | null;
  /** Lets the holder of an invitation token read that one invitation outside its tenant. */
  invitationTokenHash?: string | null;
}

export type TenantTransaction = Transaction<Schema>;

const asSetting = (value: number | string | null | undefined) => (value == null ? '' : String(value));

/**
 * Runs fn in one transaction whose row-level security context is set transaction-locally, so
 * a pooled connection never carries one request's tenant into the next. This is the only place
 * in the code base that sets the context.
 */
export function withTenant<T>(
  db: Kysely<Schema>,
  context: TenantContext,
  fn: (trx: TenantTransaction) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT
      set_config('gatehouse.organization_id', ${asSetting(context.organizationId)}, true),
      set_config('gatehouse.user_id', ${asSetting(context.userId)}, true),
      set_config('gatehouse.invitation_token_hash', ${asSetting(context.invitationTokenHash)}, true)`.execute(trx);
    return fn(trx);
  });
}
