// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  useAbility,
  useAuth,
  useOwner,
  usePasswordRecover,
  useResetPassword,
  useRouteGroup,
  useUserRole,
  type ModelAction,
} from '../../client/index.js';
import type { StoredSession } from '../client/support/platforms.js';
import { messageOf } from '../client/support/message-of.js';
import { failedQuery, renderClientHook } from '../client/support/testbed.js';
import { lastMail } from '../server/support/mail.js';
import { DEMO_PASSWORD } from '../server/support/test-server.js';
import { useLiveService, type ServiceUser } from './support/live-service.js';

const live = useLiveService();

type Check = [ModelAction, string];

const demoUsers: { email: string; role: string; can: Check[]; cannot: Check[] }[] = [
  {
    email: 'editor@acme.test',
    role: 'editor',
    can: [['update', 'posts'], ['destroy', 'posts'], ['store', 'comments'], ['index', 'users']],
    cannot: [['forceDelete', 'posts'], ['store', 'users'], ['store', 'invitations']],
  },
  {
    email: 'viewer@acme.test',
    role: 'viewer',
    can: [['index', 'posts'], ['show', 'posts'], ['index', 'comments'], ['store', 'comments']],
    cannot: [['store', 'posts'], ['update', 'posts'], ['index', 'users']],
  },
  {
    email: 'owner@acme.test',
    role: 'owner',
    can: [['forceDelete', 'posts'], ['store', 'invitations'], ['index', 'users']],
    cannot: [],
  },
];

const useSignedInPage = () => ({ auth: useAuth<ServiceUser>(), owner: useOwner(), role: useUserRole(), ability: useAbility() });

describe('signing in through useAuth', () => {
  it.each(demoUsers)('$email: the session is stored before login resolves, the hooks show the role the server gives', async (user) => {
    live.openPage();
    const { result } = renderClientHook(useSignedInPage);
    let storedOnResolve: StoredSession | undefined;
    const login = await act(() =>
      result.current.auth.login(user.email, DEMO_PASSWORD).then((answer) => {
        storedOnResolve = live.stored();
        return answer;
      }),
    );

    expect(login).toMatchObject({ success: true, user: { email: user.email }, organization: { slug: 'acme' }, organization_slug: 'acme', route_group: null });
    if (!login.success) return;
    expect(storedOnResolve).toEqual({ token: login.token, user: JSON.stringify(login.user), organization_slug: 'acme' });
    expect(result.current.auth).toMatchObject({ isAuthenticated: true, token: login.token, user: login.user });

    await waitFor(() => expect(result.current.role.data?.role).toBe(user.role));
    for (const [action, subject] of user.can) expect(result.current.ability.can(action, subject), `${action} ${subject}`).toBe(true);
    for (const [action, subject] of user.cannot) expect(result.current.ability.can(action, subject), `${action} ${subject}`).toBe(false);
    await waitFor(() => expect(result.current.owner.data).toEqual({ id: expect.any(Number), name: 'Acme Corporation', slug: 'acme' }));
  });

  it('loads the members and roles of the organization for an owner, each member with the role the server holds', async () => {
    live.openPage();
    await live.signIn('owner@acme.test');
    const { result } = renderClientHook(() => useOwner({ includes: ['users', 'roles'] }));
    await waitFor(() => expect(result.current.data?.users).toBeDefined());

    const { users = [], roles = [] } = result.current.data ?? {};
    const roleOf = (email: string) => roles.find((role) => role.id === users.find((member) => member.email === email)?.pivot.role_id)?.slug;
    expect(roleOf('owner@acme.test')).toBe('owner');
    expect(roleOf('editor@acme.test')).toBe('editor');
    expect(roleOf('viewer@acme.test')).toBe('viewer');
    expect(users.map((member) => member.email)).not.toContain('owner@globex.test');
  });

  it('refuses a viewer the members of the organization with 403, keeping the session', async () => {
    const { onForbidden, onUnauthorized } = live.openPage();
    const login = await live.signIn('viewer@acme.test');
    const error = await failedQuery(() => useOwner({ includes: ['users'] }));

    expect(messageOf(error)).toBe('You do not have permission to include users.');
    expect(onForbidden.mock.calls.map(([error]) => messageOf(error))).toEqual(['You do not have permission to include users.']);
    expect(live.stored().token).toBe(login.token);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('answers a wrong password with 401 and clears nothing, without onUnauthorized', async () => {
    const { onUnauthorized } = live.openPage();
    const signedIn = await live.signIn('editor@acme.test');
    const before = live.stored();
    const { result } = renderClientHook(useSignedInPage);

    const login = await act(() => result.current.auth.login('viewer@acme.test', 'not the password'));

    expect(login).toEqual({ success: false, status: 401, error: 'Invalid credentials' });
    expect(live.stored()).toEqual(before);
    expect(result.current.auth).toMatchObject({ isAuthenticated: true, token: signedIn.token });
    expect(onUnauthorized).not.toHaveBeenCalled();
    // The editor's session still works.
    await waitFor(() => expect(result.current.role.data?.role).toBe('editor'));
  });

  it.each([
    { email: 'viewer@acme.test', routeGroup: null, stored: { organization_slug: 'acme' }, probe: '/api/acme/user-role' },
    { email: 'admin@example.test', routeGroup: 'admin', stored: { route_group: 'admin' }, probe: '/api/admin/user-role' },
  ])('$email in route group $routeGroup: logout ends the session on the server too', async ({ email, routeGroup, stored, probe }) => {
    live.openPage();
    const { result } = renderClientHook(() => ({ auth: useAuth<ServiceUser>(), group: useRouteGroup() }));
    const login = await act(() => result.current.auth.login(email, DEMO_PASSWORD, { routeGroup }));
    if (!login.success) throw new Error(login.error);
    expect(login.route_group).toBe(routeGroup);
    expect(live.stored()).toEqual({ token: login.token, user: JSON.stringify(login.user), ...stored });
    expect(result.current.group).toBe(routeGroup);
    const token = login.token ?? undefined;
    expect((await live.server.api.get(probe, { token })).status).toBe(200);

    await act(() => result.current.auth.logout());

    expect(live.stored()).toEqual({});
    expect(result.current.auth.isAuthenticated).toBe(false);
    expect(result.current.group).toBeNull();
    expect((await live.server.api.get(probe, { token })).status).toBe(401);
  });
});

describe('a session the server no longer accepts', () => {
  it('logs the user out on the next 401 when the same token was logged out elsewhere', async () => {
    const { onUnauthorized } = live.openPage();
    const { token } = await live.signIn('viewer@acme.test');
    const page = renderClientHook(() => useAuth());
    expect((await live.server.api.post('/api/auth/logout', { token: token ?? undefined })).status).toBe(200);

    const error = await failedQuery(useUserRole);

    expect(messageOf(error)).toBe('Unauthenticated.');
    expect(live.stored()).toEqual({ organization_slug: 'acme' });
    await waitFor(() => expect(page.result.current).toMatchObject({ isAuthenticated: false, token: null, user: null }));
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('logs the user out after a password reset, and only the new password signs in', async () => {
    const email = 'owner@globex.test';
    const newPassword = 'a brand new password';
    const { onUnauthorized } = live.openPage();
    await live.signIn(email);
    const { result } = renderClientHook(() => ({ auth: useAuth(), recover: usePasswordRecover(), reset: useResetPassword() }));

    await act(() => result.current.recover.mutateAsync({ email }));
    const { token } = await lastMail(live.server, email);
    await act(() => result.current.reset.mutateAsync({ token, email, password: newPassword, password_confirmation: newPassword }));
    expect(messageOf(await failedQuery(useUserRole))).toBe('Unauthenticated.');

    expect(live.stored()).toEqual({ organization_slug: 'globex' });
    await waitFor(() => expect(result.current.auth.isAuthenticated).toBe(false));
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(await act(() => result.current.auth.login(email, DEMO_PASSWORD))).toMatchObject({ success: false, status: 401 });
    expect(await act(() => result.current.auth.login(email, newPassword))).toMatchObject({ success: true, organization_slug: 'globex' });
  });
});
