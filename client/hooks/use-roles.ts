import { bodyOf } from '../http/response-body.js';
import { joinPath } from '../urls/path.js';
import { useTenantScope } from './use-data-scope.js';
import type { MemberRole } from './use-members.js';
import type { RecordId } from './use-model-queries.js';
import { useScopedMutation, useScopedQuery } from './use-scoped-request.js';

/** A role's permissions in the selected organization. */
export interface RolePermissions {
  role: MemberRole;
  permissions: string[];
}

const rolePermissionsUrl = (base: string, id: RecordId) => `${base}${joinPath('roles', id, 'permissions')}`;

/** The roles configured in the organization; any member may read them. */
export function useRoles() {
  return useScopedQuery(useTenantScope(), 'roles', [], async (http, base) => (await bodyOf(http.get<{ data: MemberRole[] }>(`${base}/roles`))).data);
}

/** One role's permissions (`roles.show`); idle while `roleId` is null. */
export function useRolePermissions(roleId: RecordId | null) {
  return useScopedQuery(
    useTenantScope(),
    'roles',
    ['permissions', roleId],
    (http, base) => bodyOf(http.get<RolePermissions>(rolePermissionsUrl(base, roleId!))),
    roleId !== null,
  );
}

/** Replaces a role's permissions with one `PUT` (`roles.update`); refusals reject with the server's 403. */
export function useUpdateRolePermissions() {
  return useScopedMutation(
    useTenantScope(),
    () => ['roles', 'user-role', 'audit'],
    (http, base, { roleId, permissions }: { roleId: RecordId; permissions: string[] }) =>
      bodyOf(http.put<RolePermissions>(rolePermissionsUrl(base, roleId), { permissions })),
  );
}
