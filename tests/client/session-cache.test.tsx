// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { configureApi, getHttpClient, SessionEndedError, useAuth, useModelIndex, useRegister } from '../../client/index.js';
import { createMemoryStorage } from '../../client/storage/memory-storage.js';
import { webPlatform, type StoredSession } from './support/platforms.js';
import type { Reply } from './support/test-server.js';
import { useTestbed } from './support/testbed.js';

const bed = useTestbed(webPlatform);

function useSignedInPosts(enabled: boolean) {
  return { auth: useAuth(), posts: useModelIndex('posts', {}, { enabled }) };
}

describe('cached data across sessions', () => {
  it('logout forgets the records read in the session', async () => {
    bed.start({ stored: { token: 'tok', organization_slug: 'acme' } });
    bed.server.answer('GET', '/api/acme/posts', { body: { data: [{ id: 1, title: 'Private' }] } });
    bed.server.answer('POST', '/api/auth/logout', { body: { message: 'Logged out' } });
    const { result, rerender } = bed.render(useSignedInPosts, { initialProps: true });
    await waitFor(() => expect(result.current.posts.data).toEqual([{ id: 1, title: 'Private' }]));
    rerender(false);
    await act(() => result.current.auth.logout());
    // Logout also forgets the organization, which alone would change the query: back in acme, the
    // same query must find nothing of the ended session.
    await act(() => result.current.auth.setOrganization('acme'));
    expect(result.current.posts.data).toBeUndefined();
  });

  it('login refetches what was read before, with the new token', async () => {
    bed.start({ stored: { organization_slug: 'acme' } });
    bed.server.answer('GET', '/api/acme/posts', (request) => ({ body: { data: [{ as: request.headers.authorization ?? 'guest' }] } }));
    bed.server.answer('POST', '/api/auth/login', { body: { token: 'new-token', user: { id: 1 }, organization: { slug: 'acme' } } });
    const { result } = bed.render(useSignedInPosts, { initialProps: true });
    await waitFor(() => expect(result.current.posts.data).toEqual([{ as: 'guest' }]));
    await act(() => result.current.auth.login('ann@acme.test', 'secret'));
    await waitFor(() => expect(result.current.posts.data).toEqual([{ as: 'Bearer new-token' }]));
  });

  it.each<[string, (hooks: ReturnType<typeof useStartingPosts>) => Promise<unknown>]>([
    ['login', (hooks) => hooks.auth.login('ann@acme.test', 'secret')],
    ['registration', (hooks) => hooks.register.mutateAsync({ token: 'invite', name: 'Ann', email: 'ann@acme.test', password: 'p', password_confirmation: 'p' })],
  ])('%s sends each query on screen once in the session it starts, whatever the providers sharing its QueryClient', async (_name, start) => {
    bed.start({ stored: { organization_slug: 'acme' } });
    bed.server.answer('GET', '/api/acme/posts', (request) => ({ body: { data: [{ as: request.headers.authorization ?? 'guest' }] } }));
    const started = { token: 'new-token', user: { id: 1 }, organization: { slug: 'acme' } };
    bed.server.answer('POST', '/api/auth/login', { body: started });
    bed.server.answer('POST', '/api/auth/register', { status: 201, body: started });
    // A page section under a provider of its own, as one with another routeGroup is.
    const queryClient = new QueryClient();
    const { result } = bed.render(useStartingPosts, { queryClient });
    bed.render(() => useModelIndex('posts'), { queryClient });
    await waitFor(() => expect(result.current.posts.data).toEqual([{ as: 'guest' }]));
    // Counted as an app's own interceptor counts them: a refetch cancelled by another one went
    // through it, and reached the network when the other came late (after an AsyncStorage write).
    const sent: string[] = [];
    const watch = getHttpClient().interceptors.request.use((request) => {
      sent.push(`${request.method} ${request.url}`);
      return request;
    });

    await act(() => start(result.current));
    await waitFor(() => expect(result.current.posts.data).toEqual([{ as: 'Bearer new-token' }]));
    getHttpClient().interceptors.request.eject(watch);

    expect(sent.filter((line) => line.startsWith('get'))).toEqual(['get /acme/posts']);
  });
});

function useStartingPosts() {
  return { auth: useAuth(), register: useRegister(), posts: useModelIndex('posts') };
}

const postsOfAnn = [{ id: 1, title: 'Ann’s draft' }];
const postsOfBob = [{ id: 2, title: 'Bob’s draft' }];
const refused: Reply = { status: 401, body: { message: 'Unauthenticated.' } };

/** What the browser reports to this tab when another tab logs out. */
function logoutInAnotherTab() {
  window.localStorage.removeItem('token');
  window.dispatchEvent(new StorageEvent('storage', { key: 'token', newValue: null, storageArea: window.localStorage }));
}

/** What the browser reports to this tab when another tab signs in. */
function signInInAnotherTab(token: string) {
  window.localStorage.setItem('token', token);
  window.dispatchEvent(new StorageEvent('storage', { key: 'token', newValue: token, storageArea: window.localStorage }));
}

/** A storage of its own holding `values`, as an app hands configureApi for a new session. */
function storageHolding(values: StoredSession) {
  const storage = createMemoryStorage();
  for (const [key, value] of Object.entries(values)) void storage.setItem(key, value);
  return storage;
}

/**
 * Ann reads her posts on a shared page, her session ends without a logout of this tab, Bob signs
 * in on the same page and opens the posts: he must never see hers, not on the first render. The
 * trees share one QueryClient, as the parts of one page do.
 */
describe('a session that ends leaves its records to no one', () => {
  it.each([
    ['by a 401 (revoked on the server)', () => getHttpClient().get('/acme/posts').catch(() => undefined)],
    ['by a logout in another tab', logoutInAnotherTab],
  ])('%s', async (_name, endAnnsSession) => {
    bed.start({ stored: { token: 'ann-token', organization_slug: 'acme' } });
    let revoked = false;
    bed.server.answer('GET', '/api/acme/posts', ({ headers }) => {
      if (headers.authorization === 'Bearer bob-token') return { body: { data: postsOfBob } };
      return headers.authorization === 'Bearer ann-token' && !revoked ? { body: { data: postsOfAnn } } : refused;
    });
    bed.server.answer('POST', '/api/auth/login', { body: { token: 'bob-token', user: { id: 2 }, organization: { slug: 'acme' } } });
    const queryClient = new QueryClient();
    const page = bed.render(useAuth, { queryClient });
    const annsPosts = bed.render(() => useModelIndex('posts'), { queryClient });
    await waitFor(() => expect(annsPosts.result.current.data).toEqual(postsOfAnn));
    annsPosts.unmount();

    revoked = true;
    await act(endAnnsSession);
    expect(page.result.current.isAuthenticated).toBe(false);
    await act(() => page.result.current.login('bob@acme.test', 'secret'));

    const rendered: unknown[] = [];
    const bobsPosts = bed.render(
      () => {
        const posts = useModelIndex('posts');
        rendered.push(posts.data);
        return posts;
      },
      { queryClient },
    );
    await waitFor(() => expect(bobsPosts.result.current.data).toEqual(postsOfBob));
    expect(rendered).not.toContainEqual(postsOfAnn);
  });

  it('by configureApi starting a session on another storage, on screen or off', async () => {
    bed.start({ stored: { token: 'ann-token', organization_slug: 'acme' } });
    bed.server.answer('GET', '/api/acme/posts', ({ headers }) => ({ body: { data: headers.authorization === 'Bearer bob-token' ? postsOfBob : postsOfAnn } }));
    const queryClient = new QueryClient();
    let shownToBob: unknown[] | undefined;
    const usePosts = (query: { sort?: string }) => {
      const posts = useModelIndex('posts', query);
      shownToBob?.push(posts.data);
      return posts;
    };
    bed.render(useAuth, { queryClient });
    const onScreen = bed.render(() => usePosts({}), { queryClient });
    const offScreen = bed.render(() => usePosts({ sort: 'title' }), { queryClient });
    await waitFor(() => expect([onScreen.result.current.data, offScreen.result.current.data]).toEqual([postsOfAnn, postsOfAnn]));
    offScreen.unmount();

    act(() => {
      shownToBob = [];
      configureApi({ storage: storageHolding({ token: 'bob-token', organization_slug: 'acme' }) });
    });

    const reopened = bed.render(() => usePosts({ sort: 'title' }), { queryClient });
    await waitFor(() => expect([onScreen.result.current.data, reopened.result.current.data]).toEqual([postsOfBob, postsOfBob]));
    expect(shownToBob).not.toContainEqual(postsOfAnn);
  });

  it.each([
    ['a logout in another tab', logoutInAnotherTab],
    ['configureApi starting a signed-out session on another storage', () => configureApi({ storage: storageHolding({ organization_slug: 'acme' }) })],
  ])('refuses an answer to the session ended by %s that arrives after its end', async (_name, endAnnsSession) => {
    bed.start({ stored: { token: 'ann-token', organization_slug: 'acme' } });
    let answer = () => undefined as void;
    bed.server.answer('GET', '/api/acme/posts', () => new Promise((resolve) => (answer = () => resolve({ body: { data: postsOfAnn } }))));
    const { result } = bed.render(() => useModelIndex('posts'));
    await waitFor(() => expect(bed.server.requests).toHaveLength(1));

    act(endAnnsSession);
    answer();

    await waitFor(() => expect(result.current.error).toBeInstanceOf(SessionEndedError));
    expect(result.current.data).toBeUndefined();
  });

  it('a 403 ends no session and keeps its records', async () => {
    const { onForbidden } = bed.start({ stored: { token: 'ann-token', organization_slug: 'acme' } });
    bed.server.answer('GET', '/api/acme/posts', { body: { data: postsOfAnn } });
    bed.server.answer('GET', '/api/acme/roles', { status: 403, body: { message: 'This action is unauthorized.' } });
    const queryClient = new QueryClient();
    bed.render(useAuth, { queryClient });
    const first = bed.render(() => useModelIndex('posts'), { queryClient });
    await waitFor(() => expect(first.result.current.data).toEqual(postsOfAnn));
    first.unmount();

    await act(() => getHttpClient().get('/acme/roles').catch(() => undefined));

    expect(onForbidden).toHaveBeenCalledTimes(1);
    expect(bed.render(() => useModelIndex('posts'), { queryClient }).result.current.data).toEqual(postsOfAnn);
  });
});

describe('logout against a server that does not answer', () => {
  it('signs out at once, and the request still carries the ended session’s token', async () => {
    bed.start({ stored: { token: 'tok', user: JSON.stringify({ id: 1 }), organization_slug: 'acme', route_group: 'staff' } });
    let answer = () => undefined as void;
    bed.server.answer('POST', /\/auth\/logout$/, () => new Promise((resolve) => (answer = () => resolve({ body: { message: 'Logged out' } }))));
    const { result } = bed.render(useAuth);
    let loggedOut = false;
    const logout = act(() => result.current.logout().then(() => void (loggedOut = true)));

    await waitFor(() => expect(bed.server.requests.map((request) => request.line)).toContain('POST /api/staff/auth/logout'));
    expect(result.current.isAuthenticated).toBe(false);
    expect(webPlatform.stored()).toEqual({});
    expect(bed.server.requests.at(-1)!.headers.authorization).toBe('Bearer tok');
    expect(loggedOut).toBe(false);

    answer();
    await logout;
    expect(loggedOut).toBe(true);
  });
});

describe('a session replaced by a sign-in in another tab', () => {
  it('shows the new session’s records where the ended one’s were', async () => {
    bed.start({ stored: { token: 'ann-token', organization_slug: 'acme' } });
    bed.server.answer('GET', '/api/acme/posts', ({ headers }) => ({ body: { data: headers.authorization === 'Bearer bob-token' ? postsOfBob : postsOfAnn } }));
    const { result } = bed.render(() => useModelIndex('posts'));
    await waitFor(() => expect(result.current.data).toEqual(postsOfAnn));

    act(() => {
      window.localStorage.setItem('token', 'bob-token');
      window.dispatchEvent(new StorageEvent('storage', { key: 'token', newValue: 'bob-token', storageArea: window.localStorage }));
    });

    await waitFor(() => expect(result.current.data).toEqual(postsOfBob));
  });

  it.each([
    ['another user', 'bob-token'],
    ['the same user', 'ann-token-2'],
  ])('after a logout there, as %s, shows the new session’s records and does not stay loading', async (_name, token) => {
    bed.start({ stored: { token: 'ann-token', organization_slug: 'acme' } });
    bed.server.answer('GET', '/api/acme/posts', ({ headers }) => ({ body: { data: [{ readWith: headers.authorization }] } }));
    let shown: unknown[] | undefined;
    const { result } = bed.render(() => {
      const posts = useModelIndex('posts');
      shown?.push(posts.data);
      return posts;
    });
    await waitFor(() => expect(result.current.data).toEqual([{ readWith: 'Bearer ann-token' }]));

    act(() => {
      shown = [];
      logoutInAnotherTab();
      signInInAnotherTab(token);
    });

    await waitFor(() => expect(result.current.data).toEqual([{ readWith: `Bearer ${token}` }]));
    expect(shown).not.toContainEqual([{ readWith: 'Bearer ann-token' }]);
  });
});
