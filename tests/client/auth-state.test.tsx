// @vitest-environment jsdom
import { act } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getHttpClient, useAuth, useOrganization, useRouteGroup } from '../../client/index.js';
import { startFreshApp } from './support/fresh-app.js';
import { webPlatform } from './support/platforms.js';
import { useTestbed } from './support/testbed.js';

const bed = useTestbed(webPlatform);

describe('useAuth reading storage', () => {
  it.each([
    ['a stored user', '{"id":1,"name":"Ann"}', { id: 1, name: 'Ann' }],
    ['something else stored under "user"', 'Ann', null],
  ])('reads %s', (_name, stored, user) => {
    bed.start({ stored: { token: 'tok', user: stored } });
    const { result } = bed.render(useAuth);
    expect(result.current).toMatchObject({ token: 'tok', isAuthenticated: true, isReady: true, user });
  });

  it('reads empty stored values as absent: no session, no organization, no group', () => {
    bed.start({ stored: { token: '', user: '{"id":1}', organization_slug: '', route_group: '' } });
    const { result } = bed.render(() => ({ auth: useAuth(), organization: useOrganization(), group: useRouteGroup() }));
    expect(result.current.auth).toMatchObject({ token: null, isAuthenticated: false });
    expect(result.current).toMatchObject({ organization: null, group: null });
  });
});

describe('localStorage written by the page itself', () => {
  it('is what the hooks read and the requests carry: written, then cleared', async () => {
    bed.start();
    bed.server.answer('GET', '/api/acme/ping', { body: {} });
    window.localStorage.setItem('token', 'written by the page');
    window.localStorage.setItem('organization_slug', 'acme');
    window.localStorage.setItem('route_group', 'staff');
    const first = bed.render(() => ({ auth: useAuth(), organization: useOrganization(), group: useRouteGroup() }));
    expect(first.result.current).toMatchObject({ auth: { token: 'written by the page', isAuthenticated: true }, organization: 'acme', group: 'staff' });
    await getHttpClient().get('/acme/ping');
    expect(bed.server.requests.map((request) => request.headers.authorization)).toEqual(['Bearer written by the page']);
    first.unmount();

    window.localStorage.clear();
    const second = bed.render(() => ({ auth: useAuth(), organization: useOrganization(), group: useRouteGroup() }));
    expect(second.result.current).toMatchObject({ auth: { token: null, isAuthenticated: false }, organization: null, group: null });
  });
});

describe('a page whose localStorage is blocked (cookies blocked, a sandboxed frame)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('keeps the session in memory instead of failing to start', async () => {
    vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    const { client, render } = await startFreshApp(() => import('../../client/index.js'));
    client.configureApi({ baseURL: bed.server.baseURL });
    bed.server.answer('POST', '/api/auth/login', { body: { token: 'new-token', user: { id: 1 }, organization: null } });
    bed.server.answer('GET', '/api/ping', { body: {} });
    const { result } = render(client.useAuth);

    await act(async () => {
      await result.current.login('ann@acme.test', 'secret');
      await client.getHttpClient().get('/ping');
    });

    expect(result.current).toMatchObject({ isAuthenticated: true, token: 'new-token' });
    expect(bed.server.requests.at(-1)?.headers.authorization).toBe('Bearer new-token');
  });
});
