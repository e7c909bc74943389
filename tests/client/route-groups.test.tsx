// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  useAuth,
  useModelIndex,
  usePasswordRecover,
  useRegister,
  useResetPassword,
  useRouteGroup,
  type RouteGroupOption,
} from '../../client/index.js';
import { webPlatform } from './support/platforms.js';
import { useTestbed } from './support/testbed.js';

const bed = useTestbed(webPlatform);

function useAuthCalls() {
  return { auth: useAuth(), register: useRegister(), recover: usePasswordRecover(), reset: useResetPassword() };
}

type AuthCalls = ReturnType<typeof useAuthCalls>;

const calls: [string, string, (hooks: AuthCalls, option: RouteGroupOption) => Promise<unknown>][] = [
  ['login', 'login', ({ auth }, option) => auth.login('ann@acme.test', 'secret', option)],
  ['logout', 'logout', ({ auth }, option) => auth.logout(option)],
  [
    'register',
    'register',
    ({ register }, option) =>
      register.mutateAsync({ token: 'i', name: 'Ann', email: 'ann@acme.test', password: 'p', password_confirmation: 'p', ...option }),
  ],
  ['recover', 'password/recover', ({ recover }, option) => recover.mutateAsync({ email: 'ann@acme.test', ...option })],
  [
    'reset',
    'password/reset',
    ({ reset }, option) => reset.mutateAsync({ token: 't', email: 'ann@acme.test', password: 'p', password_confirmation: 'p', ...option }),
  ],
];

const overrides: [string, RouteGroupOption, string][] = [
  ['no per-call group keeps the configured one', {}, '/api/staff/auth'],
  ['a per-call group replaces it', { routeGroup: 'partners' }, '/api/partners/auth'],
  ['a per-call null uses the plain auth routes', { routeGroup: null }, '/api/auth'],
];

describe.each(calls)('%s', (_name, action, run) => {
  it.each(overrides)('%s', async (_case, option, authBase) => {
    bed.start({ api: { routeGroup: 'staff' } });
    bed.server.answer('POST', /\/auth\//, { body: {} });
    const { result } = bed.render(useAuthCalls);
    await act(() => run(result.current, option));
    const [sent] = bed.server.requests;
    expect(sent?.line).toBe(`POST ${authBase}/${action}`);
    expect(sent?.body ?? {}).not.toHaveProperty('routeGroup');
  });
});

describe('the active route group', () => {
  const session = { token: 'new-token', user: { id: 1 }, organization: { slug: 'acme' } };

  it('is the group a login went to, persisted and used by later calls', async () => {
    bed.start({ api: { routeGroupInDataPath: true } });
    bed.server.answer('POST', /\/auth\//, { body: session });
    const { result } = bed.render(() => ({ auth: useAuth(), group: useRouteGroup() }));
    await act(() => result.current.auth.login('ann@acme.test', 'secret', { routeGroup: 'partners' }));
    expect(result.current.group).toBe('partners');
    await act(() => result.current.auth.logout());
    expect(bed.server.requests.map((request) => request.line)).toEqual([
      'POST /api/partners/auth/login',
      'POST /api/partners/auth/logout',
    ]);
    expect(result.current.group).toBeNull();
  });

  it('is cleared by a login to the plain auth routes', async () => {
    bed.start({ stored: { route_group: 'partners' } });
    bed.server.answer('POST', '/api/auth/login', { body: session });
    const { result } = bed.render(() => ({ auth: useAuth(), group: useRouteGroup() }));
    await act(() => result.current.auth.login('ann@acme.test', 'secret', { routeGroup: null }));
    expect(result.current.group).toBeNull();
  });

  it('follows setRouteGroup, and a falsy group clears it', async () => {
    bed.start({ stored: { organization_slug: 'acme' }, api: { routeGroupInDataPath: true } });
    bed.server.answer('GET', /\/posts$/, { body: { data: [] } });
    const { result } = bed.render(() => ({ auth: useAuth(), group: useRouteGroup(), posts: useModelIndex('posts') }));
    const paths = () => bed.server.requests.map((request) => request.path);
    await waitFor(() => expect(paths()).toEqual(['/api/acme/posts']));
    await act(() => result.current.auth.setRouteGroup('partners'));
    await waitFor(() => expect(paths()).toEqual(['/api/acme/posts', '/api/partners/acme/posts']));
    expect(webPlatform.stored().route_group).toBe('partners');
    await act(() => result.current.auth.setRouteGroup(''));
    await waitFor(() => expect(paths()).toEqual(['/api/acme/posts', '/api/partners/acme/posts', '/api/acme/posts']));
    expect(result.current.group).toBeNull();
    expect(webPlatform.stored()).not.toHaveProperty('route_group');
  });
});

describe('AuthProvider props', () => {
  const configured = { tenancy: 'path', routeGroup: 'staff', routeGroupInDataPath: true } as const;

  it.each([
    ['tenancy and a null group override configureApi', { tenancy: 'none', routeGroup: null }, '/api/posts', '/api/auth/login'],
    ['a group overrides configureApi', { routeGroup: 'partners' }, '/api/partners/acme/posts', '/api/partners/auth/login'],
    ['absent props keep configureApi', {}, '/api/staff/acme/posts', '/api/staff/auth/login'],
  ] as const)('%s', async (_case, props, indexPath, loginPath) => {
    bed.start({ stored: { organization_slug: 'acme' }, api: configured });
    bed.server.answer('*', /.*/, { body: { data: [] } });
    bed.server.answer('POST', loginPath, { body: { token: 'tok', user: { id: 1 }, organization: { slug: 'acme' } } });
    const { result } = bed.render(() => ({ auth: useAuth(), posts: useModelIndex('posts') }), { provider: props });
    await waitFor(() => expect(result.current.posts.isSuccess).toBe(true));
    await act(() => result.current.auth.login('ann@acme.test', 'secret'));
    // The session the login starts refetches what was read before it, at the same place.
    await waitFor(() => expect(bed.server.requests.map((request) => request.path)).toEqual([indexPath, loginPath, indexPath]));
  });
});
