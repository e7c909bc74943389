import { joinPath } from './path.js';

export type AuthAction = 'login' | 'logout' | 'register' | 'password/recover' | 'password/reset';

/** `{authBase}/auth/{action}`, where the auth base carries the group of a prefix-based route group. */
export function authUrl(group: string | null, action: AuthAction): string {
  return `${joinPath(group, 'auth')}/${action}`;
}

/**
 * Login and logout answer 401 without the session having expired (wrong credentials, a token
 * already revoked), so their 401s must not run the session-expiry handling.
 */
export function isCredentialEndpoint(url: string | undefined): boolean {
  return url !== undefined && /\/auth\/(login|logout)$/.test(url);
}

export const INVITATION_ACCEPT_URL = '/invitations/accept';
