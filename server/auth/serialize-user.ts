import type { AuthUser } from '../http/state.js';

/** The public face of a user: never the hash or the permission lists. */
export function serializeUser(user: AuthUser) {
  return { id: user.id, name: user.name, email: user.email };
}
