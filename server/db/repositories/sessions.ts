import type { Executor } from './executor.js';

export async function createSession(db: Executor, session: { userId: number; routeGroup: string | null; expiresAt: Date }): Promise<string> {
  const { id } = await db
    .insertInto('sessions')
    .values({ user_id: session.userId, route_group: session.routeGroup, expires_at: session.expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function revokeSession(db: Executor, sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: new Date() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}
