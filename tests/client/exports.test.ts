import { describe, expect, it } from 'vitest';

/** The exports issues 6, 22 and 24 name; both entry points must offer every one. */
const required = [
  'configureApi',
  'AuthProvider',
  'useAuth',
  'useOrganization',
  'useRouteGroup',
  'useOwner',
  'useOrganizationExists',
  'useDebouncedValue',
  'useUserRole',
  'useRegister',
  'usePasswordRecover',
  'useResetPassword',
  'useAcceptInvitation',
  'useInvitations',
  'useInviteUser',
  'useResendInvitation',
  'useCancelInvitation',
  'useModelIndex',
  'useModelInfinite',
  'useModelShow',
  'useModelStore',
  'useModelUpdate',
  'useModelDelete',
  'useModelTrashed',
  'useModelRestore',
  'useModelForceDelete',
  'useModelAudit',
  'useModelComputedAttributes',
  'useNestedOperations',
  'useAbility',
  'Can',
  'useAuthorize',
  // The administration console's hooks (issue 24).
  'useMembers',
  'useUpdateMember',
  'useRemoveMember',
  'useRoles',
  'useRolePermissions',
  'useUpdateRolePermissions',
  'useAuditTrail',
  'usePermissionCatalog',
  'useExplain',
  'useDecisions',
  'refusalOf',
  'refusalText',
  // The contract's 'token' event, for an app to follow the session.
  'onSessionChange',
];

describe.each([
  ['@gatehouse/client', () => import('@gatehouse/client')],
  ['@gatehouse/client/native', () => import('@gatehouse/client/native')],
  ['gatehouse/client', () => import('gatehouse/client')],
  ['gatehouse/client/native', () => import('gatehouse/client/native')],
])('%s', (_entry, load) => {
  it('exports every hook and component of the issue', async () => {
    const entry: Record<string, unknown> = await load();
    expect(required.filter((name) => typeof entry[name] !== 'function')).toEqual([]);
  });
});
