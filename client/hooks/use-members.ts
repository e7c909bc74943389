import { bodyOf } from '../http/response-body.js';
import { joinPath } from '../urls/path.js';
import { useTenantScope } from './use-data-scope.js';
import type { RecordId } from './use-model-queries.js';
import { useScopedMutation, useScopedQuery, type Send } from './use-scoped-request.js';

export interface MemberRole {
  id: number;
  name: string;
  slug: string;
}

/** A member of the selected organization, as `GET {t}/members` answers. */
export interface Member {
  id: number;
  name: string;
  email: string;
  role: MemberRole;
  granted_permissions: string[];
  denied_permissions: string[];
}

/** What `PATCH {t}/members/{id}` changes; each given list replaces the old one. */
export interface MemberChange {
  role_id?: number;
  granted_permissions?: string[];
  denied_permissions?: string[];
}

const membersUrl = (base: string, id?: RecordId) => `${base}/members${joinPath(id)}`;

// A member's change can change the caller's own permissions too.
const TOUCHED = () => ['members', 'user-role', 'audit'];

function useMemberMutation<Variables, Result>(send: Send<Variables, Result>) {
  return useScopedMutation(useTenantScope(), TOUCHED, send);
}

/** The organization's members with their role and per-user grants and denials (`memberships.index`). */
export function useMembers() {
  return useScopedQuery(useTenantScope(), 'members', [], async (http, base) => (await bodyOf(http.get<{ data: Member[] }>(membersUrl(base)))).data);
}

/** Changes a member's role, grants or denials (`memberships.update`); the server's refusals reject with its 403. */
export function useUpdateMember() {
  return useMemberMutation((http, base, { id, ...change }: MemberChange & { id: RecordId }) => bodyOf(http.patch<Member>(membersUrl(base, id), change)));
}

/** Ends a membership (`memberships.destroy`); the user stays. */
export function useRemoveMember() {
  return useMemberMutation((http, base, id: RecordId) => bodyOf(http.delete<{ message: string }>(membersUrl(base, id))));
}
