import { createSession } from '../db/repositories/sessions.js';
import type { RequestDeadline } from '../db/transactions/request-deadline.js';
import type { Services } from '../services.js';

/** A session row for the user in the group, written within the request's deadline, and the token that names it. */
export async function startSession(services: Services, userId: number, routeGroup: string, deadline: RequestDeadline): Promise<{ token: string; sessionId: string }> {
  const expiresAt = services.tokens.expiryFrom(new Date());
  const sessionId = await createSession(services.db, { userId, routeGroup, expiresAt }, deadline);
  services.observability.metrics?.sessionCreated();
  return { token: await services.tokens.sign({ userId, sessionId, routeGroup, expiresAt }), sessionId };
}
