// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  useAcceptInvitation,
  useAuth,
  useInvitations,
  useInviteUser,
  useOwner,
  useRegister,
  useUserRole,
} from '../../client/index.js';
import { renderClientHook } from '../client/support/testbed.js';
import { lastMail } from '../server/support/mail.js';
import { DEMO_PASSWORD } from '../server/support/test-server.js';
import { useLiveService, type ServiceUser } from './support/live-service.js';

const live = useLiveService();

/** The owner of acme invites `email` with the role `roleSlug` from their page; resolves to the mailed token. */
async function inviteFromOwnersPage(email: string, roleSlug: string): Promise<string> {
  live.openPage();
  await live.signIn('owner@acme.test');
  const { result } = renderClientHook(() => ({
    organization: useOwner({ includes: ['roles'] }),
    pending: useInvitations({ status: 'pending' }),
    invite: useInviteUser(),
  }));
  await waitFor(() => expect(result.current.organization.data?.roles).toBeDefined());
  const role = result.current.organization.data?.roles?.find((candidate) => candidate.slug === roleSlug);
  if (!role) throw new Error(`acme has no role ${roleSlug}`);

  const invitation = await act(() => result.current.invite.mutateAsync({ email, role_id: role.id }));

  expect(invitation).toMatchObject({ email, role_id: role.id, status: 'pending' });
  await waitFor(() => expect(result.current.pending.data?.map((pending) => pending.email)).toContain(email));
  return (await lastMail(live.server, email)).token;
}

describe('invitations between two browser pages', () => {
  it('lets a new user register with the mailed token and start a session in the organization', async () => {
    const email = 'nina@acme.test';
    const token = await inviteFromOwnersPage(email, 'viewer');

    live.openPage();
    const { result } = renderClientHook(() => ({ auth: useAuth<ServiceUser>(), accept: useAcceptInvitation(), register: useRegister<ServiceUser>(), role: useUserRole() }));
    const opened = await act(() => result.current.accept.mutateAsync({ token }));
    expect(opened).toMatchObject({ requires_registration: true, organization: { slug: 'acme' } });
    expect(live.stored()).toEqual({});

    const registered = await act(() =>
      result.current.register.mutateAsync({ token, name: 'Nina New', email, password: DEMO_PASSWORD, password_confirmation: DEMO_PASSWORD }),
    );

    expect(registered).toMatchObject({ token: expect.any(String), user: { name: 'Nina New', email }, organization_slug: 'acme' });
    expect(live.stored()).toEqual({ token: registered.token, user: JSON.stringify(registered.user), organization_slug: 'acme' });
    await waitFor(() => expect(result.current.auth).toMatchObject({ isAuthenticated: true, user: { email } }));
    await waitFor(() => expect(result.current.role.data?.role).toBe('viewer'));
  });

  it('lets a signed-in user accept without a new token, then work in the organization with the invited role', async () => {
    const email = 'owner@globex.test';
    const token = await inviteFromOwnersPage(email, 'editor');

    live.openPage();
    const signedIn = await live.signIn(email);
    const before = live.stored();
    const { result } = renderClientHook(() => ({ auth: useAuth(), accept: useAcceptInvitation(), role: useUserRole() }));
    await waitFor(() => expect(result.current.role.data?.role).toBe('owner'));

    const accepted = await act(() => result.current.accept.mutateAsync({ token }));

    expect(accepted).toMatchObject({ message: 'Invitation accepted.', invitation: { email, status: 'accepted' }, organization: { slug: 'acme' } });
    expect(accepted).not.toHaveProperty('token');
    expect(live.stored()).toEqual(before);
    expect(result.current.auth.token).toBe(signedIn.token);

    await act(() => result.current.auth.setOrganization('acme'));
    await waitFor(() => expect(result.current.role.data?.role).toBe('editor'));
  });
});
