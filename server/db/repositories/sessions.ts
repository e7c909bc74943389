import type { Executor } from './executor.js';

export interface ActiveSession {
  id: string;
  user_id: number;
  route_group: string | null;
  user_name: string;
  user_email: string;
}

export async function createSession(db: Executor, session: { userId: number; routeGroup: string | null; expiresAt: Date }): Promise<string> {
  const { id } = await db
    .insertInto('sessions')
    .values({ user_id: session.userId, route_group: session.routeGroup, expires_at: session.expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The session with its user, or nothing when it is unknown, revoked or past its expiry. */
export function findActiveSession(db: Executor, sessionId: string): Promise<ActiveSession | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.id', 'sessions.user_id', 'sessions.route_group', 'users.name as user_name', 'users.email as user_email'])
    .where('sessions.id', '=', sessionId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', new Date())
    .executeTakeFirst();
}

export async function revokeSession(db: Executor, sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: new Date() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}
