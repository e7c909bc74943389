import { sql } from 'kysely';
import type { Executor } from './executor.js';
import type { RequestDeadline } from '../transactions/request-deadline.js';
import { withTenant } from '../transactions/tenant-transaction.js';

export async function createPasswordReset(db: Executor, reset: { userId: number; tokenHash: string; expiresAt: Date }): Promise<void> {
  await db.insertInto('password_resets').values({ user_id: reset.userId, token_hash: reset.tokenHash, expires_at: reset.expiresAt }).execute();
}

/** Marks the reset used if it is unused, unexpired and the email's; returns its user, or nothing. */
async function consumePasswordReset(db: Executor, tokenHash: string, email: string): Promise<number | undefined> {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: new Date() })
    .where('token_hash', '=', tokenHash)
    .where('user_id', 'in', db.selectFrom('users').select('id').where(sql<string>`lower(email)`, '=', email.toLowerCase()))
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/**
 * Spends the reset link and sets the new password in one transaction; every other outstanding
 * link and every session of the user die with it. False when the link is not good for the email.
 * The transaction, of no tenant, carries the request's deadline.
 */
export function resetPassword(db: Executor, reset: { tokenHash: string; email: string; passwordHash: string }, deadline: RequestDeadline): Promise<boolean> {
  return withTenant(db, { organizationId: null, userId: null }, async (trx) => {
    const userId = await consumePasswordReset(trx, reset.tokenHash, reset.email);
    if (userId === undefined) return false;
    const now = new Date();
    await trx.updateTable('users').set({ password_hash: reset.passwordHash }).where('id', '=', userId).execute();
    await trx.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
    await trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    return true;
  }, deadline);
}
