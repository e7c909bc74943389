// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  useAcceptInvitation,
  useAuth,
  useCancelInvitation,
  useInvitations,
  useInviteUser,
  useModelAudit,
  useModelComputedAttributes,
  useModelDelete,
  useModelForceDelete,
  useModelIndex,
  useModelInfinite,
  useModelRestore,
  useModelShow,
  useModelStore,
  useModelTrashed,
  useModelUpdate,
  useNestedOperations,
  useOrganizationExists,
  useOwner,
  usePasswordRecover,
  useRegister,
  useResendInvitation,
  useResetPassword,
  useUserRole,
  type Tenancy,
} from '../../client/index.js';
import { webPlatform } from './support/platforms.js';
import { useTestbed } from './support/testbed.js';

const bed = useTestbed(webPlatform);

interface Setup {
  tenancy: Tenancy;
  routeGroup: string | null;
  routeGroupInDataPath: boolean;
  /** Expected prefixes, written out from the contract's table rather than computed. */
  data: string;
  tenant: string;
  auth: string;
}

const setups: Setup[] = [
  { tenancy: 'path', routeGroup: null, routeGroupInDataPath: false, data: '/api/acme', tenant: '/api/acme', auth: '/api' },
  { tenancy: 'path', routeGroup: null, routeGroupInDataPath: true, data: '/api/acme', tenant: '/api/acme', auth: '/api' },
  { tenancy: 'path', routeGroup: 'staff', routeGroupInDataPath: false, data: '/api/acme', tenant: '/api/acme', auth: '/api/staff' },
  { tenancy: 'path', routeGroup: 'staff', routeGroupInDataPath: true, data: '/api/staff/acme', tenant: '/api/staff/acme', auth: '/api/staff' },
  { tenancy: 'subdomain', routeGroup: null, routeGroupInDataPath: false, data: '/api', tenant: '/api/acme', auth: '/api' },
  { tenancy: 'subdomain', routeGroup: null, routeGroupInDataPath: true, data: '/api', tenant: '/api/acme', auth: '/api' },
  { tenancy: 'subdomain', routeGroup: 'staff', routeGroupInDataPath: false, data: '/api', tenant: '/api/acme', auth: '/api/staff' },
  { tenancy: 'subdomain', routeGroup: 'staff', routeGroupInDataPath: true, data: '/api/staff', tenant: '/api/staff/acme', auth: '/api/staff' },
  { tenancy: 'none', routeGroup: null, routeGroupInDataPath: false, data: '/api', tenant: '/api/acme', auth: '/api' },
  { tenancy: 'none', routeGroup: null, routeGroupInDataPath: true, data: '/api', tenant: '/api/acme', auth: '/api' },
  { tenancy: 'none', routeGroup: 'staff', routeGroupInDataPath: false, data: '/api', tenant: '/api/acme', auth: '/api/staff' },
  { tenancy: 'none', routeGroup: 'staff', routeGroupInDataPath: true, data: '/api/staff', tenant: '/api/staff/acme', auth: '/api/staff' },
];

/** Counts the tests' sessions, so each test's token is its own. */
let sessions = 0;

/** One answer every hook can read: it carries each field some hook looks for, and no token. */
const anyAnswer = { body: { data: [], results: [], exists: false } };

function useEveryOperation() {
  return {
    queries: [
      useModelIndex('posts'),
      useModelInfinite('posts'),
      useModelShow('posts', 7),
      useModelTrashed('posts'),
      useModelAudit('posts', 7),
      useModelComputedAttributes('posts'),
      useOwner(),
      useUserRole(),
      useInvitations(),
    ],
    exists: useOrganizationExists('acme'),
    auth: useAuth(),
    store: useModelStore('posts'),
    update: useModelUpdate('posts'),
    destroy: useModelDelete('posts'),
    restore: useModelRestore('posts'),
    forceDelete: useModelForceDelete('posts'),
    nestedInModel: useNestedOperations('posts'),
    nested: useNestedOperations(),
    invite: useInviteUser(),
    resend: useResendInvitation(),
    cancel: useCancelInvitation(),
    register: useRegister(),
    recover: usePasswordRecover(),
    reset: useResetPassword(),
    accept: useAcceptInvitation(),
  };
}

type Operations = ReturnType<typeof useEveryOperation>;

/** Each write in a fixed order, so the recorded list can be compared line by line. */
const writes: [string, (ops: Operations) => Promise<unknown>, (setup: Setup) => string][] = [
  ['store', (ops) => ops.store.mutateAsync({ title: 'x' }), (s) => `POST ${s.data}/posts`],
  ['update', (ops) => ops.update.mutateAsync({ id: 7, data: { title: 'y' } }), (s) => `PUT ${s.data}/posts/7`],
  ['destroy', (ops) => ops.destroy.mutateAsync(7), (s) => `DELETE ${s.data}/posts/7`],
  ['restore', (ops) => ops.restore.mutateAsync(7), (s) => `POST ${s.data}/posts/7/restore`],
  ['force delete', (ops) => ops.forceDelete.mutateAsync(7), (s) => `DELETE ${s.data}/posts/7/force-delete`],
  ['nested in a model', (ops) => ops.nestedInModel.mutateAsync([]), (s) => `POST ${s.data}/posts/nested`],
  ['nested', (ops) => ops.nested.mutateAsync([]), (s) => `POST ${s.data}/nested`],
  ['invite', (ops) => ops.invite.mutateAsync({ email: 'a@b.test', role_id: 2 }), (s) => `POST ${s.tenant}/invitations`],
  ['resend', (ops) => ops.resend.mutateAsync(9), (s) => `POST ${s.tenant}/invitations/9/resend`],
  ['cancel', (ops) => ops.cancel.mutateAsync(9), (s) => `DELETE ${s.tenant}/invitations/9`],
  [
    'register',
    (ops) => ops.register.mutateAsync({ token: 'i', name: 'n', email: 'e', password: 'p', password_confirmation: 'p' }),
    (s) => `POST ${s.auth}/auth/register`,
  ],
  ['recover', (ops) => ops.recover.mutateAsync({ email: 'e' }), (s) => `POST ${s.auth}/auth/password/recover`],
  [
    'reset',
    (ops) => ops.reset.mutateAsync({ token: 't', email: 'e', password: 'p', password_confirmation: 'p' }),
    (s) => `POST ${s.auth}/auth/password/reset`,
  ],
  ['accept', (ops) => ops.accept.mutateAsync({ token: 'i' }), () => 'POST /api/invitations/accept'],
  ['login', (ops) => ops.auth.login('e', 'p'), (s) => `POST ${s.auth}/auth/login`],
  ['logout', (ops) => ops.auth.logout(), (s) => `POST ${s.auth}/auth/logout`],
];

const reads = (s: Setup) => [
  // Index and the infinite index's first page.
  `GET ${s.data}/posts`,
  `GET ${s.data}/posts/7`,
  `GET ${s.data}/posts/trashed`,
  `GET ${s.data}/posts/7/audit`,
  `GET ${s.data}/posts/computed`,
  `GET ${s.tenant}/organizations?filter[slug]=acme`,
  `GET ${s.tenant}/organizations/exists`,
  `GET ${s.tenant}/user-role`,
  `GET ${s.tenant}/invitations`,
];

describe.each(setups)(
  'tenancy $tenancy, route group $routeGroup, group in data path $routeGroupInDataPath',
  (setup) => {
    let token = '';
    const start = () => {
      token = `tok-${++sessions}`;
      bed.start({
        stored: { token, organization_slug: 'acme' },
        api: { tenancy: setup.tenancy, routeGroup: setup.routeGroup, routeGroupInDataPath: setup.routeGroupInDataPath },
      });
      bed.server.answer('*', /.*/, anyAnswer);
      return bed.render(useEveryOperation);
    };

    it('reads from the URLs of the table', async () => {
      const { result } = start();
      await waitFor(() => {
        expect(result.current.queries.every((query) => query.isSuccess)).toBe(true);
        expect(result.current.exists.isLoading).toBe(false);
      });
      // Nothing cancels a request when its component unmounts, so a read of the test before may
      // still arrive now: only the requests of this test's session count.
      const sent = bed.server.requests.filter((request) => request.headers.authorization === `Bearer ${token}`);
      expect(new Set(sent.map((request) => request.line))).toEqual(new Set(reads(setup)));
    });

    it('writes to the URLs of the table', async () => {
      const { result } = start();
      for (const [, write] of writes) await act(() => write(result.current));
      expect(bed.server.writes().map((request) => request.line)).toEqual(writes.map(([, , line]) => line(setup)));
    });
  },
);
