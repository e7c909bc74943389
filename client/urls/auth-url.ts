import { joinPath } from './path.js';

export type AuthAction = 'login' | 'logout' | 'register' | 'password/recover' | 'password/reset';

/** `{authBase}/auth/{action}`, where the auth base carries the group of a prefix-based route group. */
export function authUrl(group: string | null, action: AuthAction): string {
  return `${joinPath(group, 'auth')}/${action}`;
}

/** The session action a request URL addresses (`/auth/login`, `/{group}/auth/logout`), else null. */
export function sessionActionOf(url: string | undefined): 'login' | 'logout' | null {
  const action = url?.match(/\/auth\/(login|logout)$/)?.[1];
  return action === 'login' || action === 'logout' ? action : null;
}

export const INVITATION_ACCEPT_URL = '/invitations/accept';
