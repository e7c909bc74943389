import type { Executor } from './executor.js';
import type { RequestDeadline } from '../transactions/request-deadline.js';
import { runWithinDeadline } from '../transactions/request-read.js';

export async function createSession(db: Executor, session: { userId: number; routeGroup: string | null; expiresAt: Date }, deadline?: RequestDeadline): Promise<string> {
  const insert = db.insertInto('sessions').values({ user_id: session.userId, route_group: session.routeGroup, expires_at: session.expiresAt }).returning('id');
  const [row] = await runWithinDeadline(db, insert.compile(), deadline);
  return row!.id;
}

export async function revokeSession(db: Executor, sessionId: string, deadline?: RequestDeadline): Promise<void> {
  await runWithinDeadline(db, db.updateTable('sessions').set({ revoked_at: new Date() }).where('id', '=', sessionId).where('revoked_at', 'is', null).compile(), deadline);
}
