import { bodyOf } from '../http/response-body.js';
import { joinPath } from '../urls/path.js';
import { useTenantScope } from './use-data-scope.js';
import type { RecordId } from './use-model-queries.js';
import { useScopedMutation, useScopedQuery, type Send } from './use-scoped-request.js';

export interface Invitation {
  id: number;
  email: string;
  role_id: number;
  route_group?: string | null;
  [attribute: string]: unknown;
}

export interface InviteUser {
  email: string;
  role_id: number;
  route_group?: string | null;
}

const invitationsUrl = (base: string, id?: RecordId, action?: 'resend') => `${base}/invitations${joinPath(id, action)}`;

/**
 * Invitations of the selected organization, optionally only those with the given status:
 * `{status}`, or the status alone as rhino-react takes it; `'all'` or none lists every status.
 */
export function useInvitations<T = Invitation>(options: { status?: string } | string = {}) {
  const status = typeof options === 'string' ? options : options.status;
  const params = status && status !== 'all' ? { status } : {};
  return useScopedQuery(useTenantScope(), 'invitations', ['list', params], async (http, base) =>
    (await bodyOf(http.get<{ data: T[] }>(invitationsUrl(base), { params }))).data,
  );
}

function useInvitationMutation<Variables, Result>(
  send: Send<Variables, Result>,
) {
  return useScopedMutation(useTenantScope(), () => ['invitations'], send);
}

/** Invites someone by email with a role; resolves to the invitation. */
export function useInviteUser<T = Invitation>() {
  return useInvitationMutation((http, base, invitation: InviteUser) => bodyOf(http.post<T>(invitationsUrl(base), invitation)));
}

/** Sends the invitation's email again. */
export function useResendInvitation() {
  return useInvitationMutation((http, base, id: RecordId) => bodyOf(http.post<unknown>(invitationsUrl(base, id, 'resend'))));
}

/** Withdraws an invitation. */
export function useCancelInvitation() {
  return useInvitationMutation((http, base, id: RecordId) => bodyOf(http.delete<unknown>(invitationsUrl(base, id))));
}
