import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AxiosInstance } from 'axios';
import { bodyOf } from '../http/response-body.js';
import { CACHE_ROOT } from '../cache/cache-keys.js';
import { useClientScope } from '../react/gatehouse-context.js';
import { followsSession } from '../react/use-cache-following-session.js';
import { routeGroupForCall, type RouteGroupOption } from '../session/route-group.js';
import { startSession, type SessionResponse } from '../session/session-start.js';
import { authUrl, INVITATION_ACCEPT_URL, type AuthAction } from '../urls/auth-url.js';

export interface RegisterInput extends RouteGroupOption {
  /** The invitation token from the invitation email. */
  token: string;
  name: string;
  email: string;
  password: string;
  password_confirmation: string;
}

export interface PasswordRecoverInput extends RouteGroupOption {
  email: string;
}

export interface PasswordResetInput extends RouteGroupOption {
  /** The reset token from the recovery email. */
  token: string;
  email: string;
  password: string;
  password_confirmation: string;
}

/** An auth endpoint of the active route group, or of the group the call names; `routeGroup` is not sent. */
function useAuthMutation<Input extends RouteGroupOption, Result>(
  action: AuthAction,
  handle: (http: AxiosInstance, url: string, body: Omit<Input, 'routeGroup'>, group: string | null) => Promise<Result>,
) {
  const { runtime, configuredGroup } = useClientScope();
  return useMutation({
    mutationFn: ({ routeGroup, ...body }: Input) => {
      const group = routeGroupForCall(runtime.session, configuredGroup, { routeGroup });
      return handle(runtime.http, authUrl(group, action), body, group);
    },
  });
}

/**
 * Registers through an invitation and resolves to the server's answer. When the answer carries a
 * token the session starts before the mutation resolves; without one the session is left alone.
 */
export function useRegister<User = unknown>() {
  const { runtime } = useClientScope();
  const client = useQueryClient();
  return useAuthMutation<RegisterInput, SessionResponse<User>>('register', async (http, url, body, group) => {
    const answer = await bodyOf(http.post<SessionResponse<User>>(url, body));
    const { token } = await startSession(runtime.session, answer, group);
    // A provider following this client refetched as the session started; a second refetch
    // would cancel that one and send every query again.
    if (token && !followsSession(client)) void client.invalidateQueries({ queryKey: [CACHE_ROOT] });
    return answer;
  });
}

/** Asks for a password reset email; the server answers alike whether or not the address exists. */
export function usePasswordRecover() {
  return useAuthMutation<PasswordRecoverInput, unknown>('password/recover', (http, url, body) => bodyOf(http.post(url, body)));
}

/** Sets a new password with the token from the recovery email. */
export function useResetPassword() {
  return useAuthMutation<PasswordResetInput, unknown>('password/reset', (http, url, body) => bodyOf(http.post(url, body)));
}

export interface AcceptedInvitation {
  message?: string;
  invitation?: Record<string, unknown>;
  organization?: { slug: string; [attribute: string]: unknown };
  /** Set for a guest: true when the invitee has to register, false when they have to sign in first. */
  requires_registration?: boolean;
  /** For a guest: the invited email. */
  email?: string;
}

/**
 * Accepts an invitation for the signed-in invitee, given `{token}` or the token alone (as
 * rhino-react takes it); starts no session (the endpoint issues no token).
 */
export function useAcceptInvitation() {
  const { runtime } = useClientScope();
  return useMutation({
    mutationFn: (invitation: { token: string } | string) =>
      bodyOf(runtime.http.post<AcceptedInvitation>(INVITATION_ACCEPT_URL, { token: typeof invitation === 'string' ? invitation : invitation.token })),
  });
}
