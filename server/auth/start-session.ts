import { createSession } from '../db/repositories/sessions.js';
import type { Services } from '../services.js';

/** A session row for the user in the group, and the token that names it. */
export async function startSession(services: Services, userId: number, routeGroup: string): Promise<{ token: string; sessionId: string }> {
  const expiresAt = services.tokens.expiryFrom(new Date());
  const sessionId = await createSession(services.db, { userId, routeGroup, expiresAt });
  services.observability.metrics?.sessionCreated();
  return { token: await services.tokens.sign({ userId, sessionId, routeGroup, expiresAt }), sessionId };
}
