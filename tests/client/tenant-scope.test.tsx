// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  OrganizationRequiredError,
  getHttpClient,
  useCancelInvitation,
  useInvitations,
  useInviteUser,
  useModelIndex,
  useModelInfinite,
  useModelShow,
  useModelStore,
  useOrganizationExists,
  useOwner,
  useResendInvitation,
  useUserRole,
  type Tenancy,
} from '../../client/index.js';
import { webPlatform } from './support/platforms.js';
import { useTestbed } from './support/testbed.js';

const bed = useTestbed(webPlatform);

function useWithoutOrganization() {
  return {
    reads: {
      owner: useOwner(),
      userRole: useUserRole(),
      invitations: useInvitations(),
      index: useModelIndex('posts'),
      infinite: useModelInfinite('posts'),
      show: useModelShow('posts', 1),
    },
    exists: useOrganizationExists(''),
    invite: useInviteUser(),
    resend: useResendInvitation(),
    cancel: useCancelInvitation(),
    store: useModelStore('posts'),
  };
}

type Hooks = ReturnType<typeof useWithoutOrganization>;

const tenantWrites: [string, (hooks: Hooks) => Promise<unknown>][] = [
  ['invite', (hooks) => hooks.invite.mutateAsync({ email: 'a@b.test', role_id: 2 })],
  ['resend', (hooks) => hooks.resend.mutateAsync(1)],
  ['cancel', (hooks) => hooks.cancel.mutateAsync(1)],
];

/** After the sentinel has answered, anything the hooks sent on mount has been recorded before it. */
async function requestsBeforeSentinel() {
  bed.server.answer('GET', '/api/sentinel', { body: {} });
  await act(() => getHttpClient().get('/sentinel'));
  return bed.server.requests.map((request) => request.line);
}

describe.each<Tenancy>(['path', 'subdomain', 'none'])('tenancy %s without an organization', (tenancy) => {
  const dataNeedsOrganization = tenancy === 'path';

  it('sends no tenant request and no data request that needs the organization', async () => {
    bed.start({ stored: { token: 'tok' }, api: { tenancy } });
    bed.server.answer('GET', /\/posts/, { body: { data: [] } });
    const { result } = bed.render(useWithoutOrganization);
    const sent = await requestsBeforeSentinel();
    expect(sent.filter((line) => !line.includes('/posts'))).toEqual(['GET /api/sentinel']);
    expect(sent.some((line) => line.includes('/posts'))).toBe(!dataNeedsOrganization);
    const { owner, userRole, invitations } = result.current.reads;
    for (const idle of [owner, userRole, invitations]) expect(idle.fetchStatus).toBe('idle');
    expect(result.current.exists).toEqual({ exists: false, isLoading: false, organization: null });
  });

  it.each(tenantWrites)('%s rejects without sending', async (_name, write) => {
    bed.start({ stored: { token: 'tok' }, api: { tenancy } });
    const { result } = bed.render(useWithoutOrganization);
    await act(() => expect(write(result.current)).rejects.toBeInstanceOf(OrganizationRequiredError));
    expect(await requestsBeforeSentinel()).toContain('GET /api/sentinel');
    expect(bed.server.writes()).toEqual([]);
  });

  it(`${dataNeedsOrganization ? 'rejects' : 'sends'} a data write`, async () => {
    bed.start({ stored: { token: 'tok' }, api: { tenancy } });
    bed.server.answer('POST', '/api/posts', { status: 201, body: { id: 1 } });
    const { result } = bed.render(useWithoutOrganization);
    const stored = act(() => result.current.store.mutateAsync({ title: 'x' }));
    if (dataNeedsOrganization) await expect(stored).rejects.toBeInstanceOf(OrganizationRequiredError);
    else await expect(stored).resolves.toEqual({ id: 1 });
  });
});

describe('a tenancy the contract does not name (a typo, or a value from plain JavaScript)', () => {
  const typo = 'subdomian' as Tenancy;

  it.each([
    ['configureApi', { api: { tenancy: typo } }, {}],
    ['the provider', {}, { tenancy: typo }],
  ])('given to %s, is the default path tenancy: data URLs keep the organization', async (_where, setup, provider) => {
    bed.start({ stored: { token: 'tok', organization_slug: 'acme' }, ...setup });
    bed.server.answer('GET', /\/posts$/, { body: { data: [] } });
    const { result } = bed.render(() => useModelIndex('posts'), { provider });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(bed.server.requests.map((request) => request.path)).toEqual(['/api/acme/posts']);
  });
});
