import type { SessionStore } from './session-store.js';

/** Whether the session whose token was `token` has ended since: a token was held, and the store now holds another or none. */
export const endedSince = (token: string | null, session: Pick<SessionStore, 'get'>): boolean => token !== null && session.get('token') !== token;
