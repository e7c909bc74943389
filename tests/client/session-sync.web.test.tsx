// @vitest-environment jsdom
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getHttpClient, useAuth, useOrganization, useRouteGroup } from '../../client/index.js';
import { webPlatform, type StoredSession } from './support/platforms.js';
import { describeInAppSync } from './support/session-sync.js';
import { useTestbed } from './support/testbed.js';

describeInAppSync(webPlatform);

const bed = useTestbed(webPlatform);

/** What the browser does in this tab when another tab writes localStorage. */
function writeFromAnotherTab(key: string | null, newValue: string | null, storageArea: Storage = window.localStorage) {
  if (key === null) storageArea.clear();
  else if (newValue === null) storageArea.removeItem(key);
  else storageArea.setItem(key, newValue);
  window.dispatchEvent(new StorageEvent('storage', { key, newValue, storageArea }));
}

function useSessionView() {
  const auth = useAuth();
  return { token: auth.token, organization: useOrganization(), group: useRouteGroup() };
}

const signedIn: StoredSession = { token: 'tok', user: '{"id":1}', organization_slug: 'acme', route_group: 'staff' };

describe('web: changes made in this tab', () => {
  it('persists the organization and route group in localStorage before the setters return', () => {
    bed.start({ stored: signedIn });
    const { result } = bed.render(useAuth);
    act(() => {
      void result.current.setOrganization('globex');
      void result.current.setRouteGroup('partners');
    });
    expect(webPlatform.stored()).toEqual({ ...signedIn, organization_slug: 'globex', route_group: 'partners' });
  });
});

describe('web: changes made in another tab', () => {
  it.each([
    ['a new organization', 'organization_slug', 'globex', { token: 'tok', organization: 'globex', group: 'staff' }],
    ['a new route group', 'route_group', 'partners', { token: 'tok', organization: 'acme', group: 'partners' }],
    ['a logout (token removed)', 'token', null, { token: null, organization: 'acme', group: 'staff' }],
    ['storage cleared', null, null, { token: null, organization: null, group: null }],
  ])('%s re-renders this tab', async (_name, key, value, expected) => {
    bed.start({ stored: signedIn });
    const { result } = bed.render(useSessionView);
    act(() => writeFromAnotherTab(key, value));
    await waitFor(() => expect(result.current).toEqual(expected));
  });

  it('stops sending the token another tab removed', async () => {
    bed.start({ stored: signedIn });
    bed.server.answer('GET', '/api/ping', { body: {} });
    bed.render(useSessionView);
    act(() => writeFromAnotherTab('token', null));
    await getHttpClient().get('/ping');
    expect(bed.server.requests[0]?.headers).not.toHaveProperty('authorization');
  });

  it('ignores sessionStorage', async () => {
    bed.start({ stored: signedIn });
    const { result } = bed.render(useSessionView);
    act(() => writeFromAnotherTab('organization_slug', 'globex', window.sessionStorage));
    // A change that does count, made after the one that must not: once it shows, both were handled.
    act(() => writeFromAnotherTab('route_group', 'partners'));
    await waitFor(() => expect(result.current).toEqual({ token: 'tok', organization: 'acme', group: 'partners' }));
  });
});

describe('web: the stored organization and route group outside AuthProvider', () => {
  it('are read, and follow changes, by components with no provider above them', async () => {
    bed.start({ stored: signedIn });
    const outside = renderHook(() => ({ organization: useOrganization(), group: useRouteGroup() }));
    expect(outside.result.current).toEqual({ organization: 'acme', group: 'staff' });
    const { result } = bed.render(useAuth);
    act(() => {
      void result.current.setOrganization('globex');
    });
    act(() => writeFromAnotherTab('route_group', 'partners'));
    await waitFor(() => expect(outside.result.current).toEqual({ organization: 'globex', group: 'partners' }));
  });
});
