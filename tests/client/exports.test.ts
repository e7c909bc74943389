import { describe, expect, it } from 'vitest';

/** The exports issues 6 and 22 name; both entry points must offer every one. */
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
  'useExplain',
  'useDecisions',
  'refusalOf',
  'refusalText',
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
