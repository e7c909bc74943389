// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { configureApi, onSessionChange, useAuth, useModelIndex } from '../../client/native.js';
import { startFreshApp } from './support/fresh-app.js';
import { nativePlatform } from './support/platforms.js';
import { useTestbed } from './support/testbed.js';

const platform = nativePlatform();
const bed = useTestbed(platform);

describe('gatehouse/client/native', () => {
  it('asks for AsyncStorage when configured without it', async () => {
    const { client } = await startFreshApp(() => import('../../client/native.js'));
    expect(() => client.configureApi({ baseURL: bed.server.baseURL })).toThrow(/configureApi\(\{ storage: AsyncStorage \}\)/);
  });

  it('restores the session from AsyncStorage and sends no request before it has', async () => {
    bed.start({ stored: { token: 'kept', user: '{"id":1}', organization_slug: 'acme' } });
    bed.server.answer('GET', '/api/acme/posts', { body: { data: [] } });
    const { result } = bed.render(() => ({ auth: useAuth(), posts: useModelIndex('posts') }));
    expect(result.current.auth).toMatchObject({ isReady: false, isAuthenticated: false });
    await waitFor(() => expect(result.current.auth).toMatchObject({ isReady: true, token: 'kept', user: { id: 1 } }));
    await waitFor(() => expect(result.current.posts.isSuccess).toBe(true));
    expect(bed.server.requests.map((request) => request.headers.authorization)).toEqual(['Bearer kept']);
  });

  it('ends the session on a 401 when the app set no onUnauthorized', async () => {
    const { client, render } = await startFreshApp(() => import('../../client/native.js'));
    client.configureApi({ baseURL: bed.server.baseURL, storage: platform.prepare({ token: 'old', organization_slug: 'acme' }) });
    bed.server.answer('GET', '/api/acme/posts', { status: 401, body: { message: 'Unauthenticated.' } });
    const { result } = render(() => ({ auth: client.useAuth(), posts: client.useModelIndex('posts') }));
    await waitFor(() => expect(result.current.posts.isError).toBe(true));
    expect(result.current.auth.isAuthenticated).toBe(false);
    expect(platform.stored()).toEqual({ organization_slug: 'acme' });
  });
});

describe('a read sent while the session was still being restored', () => {
  it('is refused when the restored session ends before its answer, as any read of an ended session is', async () => {
    bed.start({ stored: { token: 'ann-token' }, api: { tenancy: 'none' } });
    let answer = () => undefined as void;
    bed.server.answer('GET', '/api/posts', () => new Promise((resolve) => (answer = () => resolve({ body: { data: [{ id: 1, title: 'Ann’s draft' }] } }))));
    // Rendered at once, as an app's first screen is: the read starts before AsyncStorage answered.
    const { result } = bed.render(() => ({ auth: useAuth(), posts: useModelIndex('posts') }));
    await waitFor(() => expect(bed.server.requests.map((request) => request.headers.authorization)).toEqual(['Bearer ann-token']));

    await act(() => result.current.auth.logout());
    answer();

    await waitFor(() => expect(result.current.posts.isFetching).toBe(false));
    expect(result.current.posts.data).toBeUndefined();
  });
});

describe('a session configureApi starts on another AsyncStorage', () => {
  it('shows its records where the previous session’s were, never those', async () => {
    // No organization in the URL: the query is the same one while the new storage is read.
    bed.start({ stored: { token: 'ann-token' }, api: { tenancy: 'none' } });
    bed.server.answer('GET', '/api/posts', ({ headers }) => ({ body: { data: [{ author: headers.authorization }] } }));
    let shown: unknown[] | undefined;
    const { result } = bed.render(() => {
      const posts = useModelIndex('posts');
      shown?.push(posts.data);
      return posts;
    });
    await waitFor(() => expect(result.current.data).toEqual([{ author: 'Bearer ann-token' }]));

    act(() => {
      shown = [];
      configureApi({ storage: platform.prepare({ token: 'bob-token' }) });
    });

    await waitFor(() => expect(result.current.data).toEqual([{ author: 'Bearer bob-token' }]));
    expect(shown).not.toContainEqual([{ author: 'Bearer ann-token' }]);
  });

  it('is told to an app once restored, never as a sign-out while AsyncStorage is read', async () => {
    bed.start({ stored: { token: 'ann-token', organization_slug: 'acme' } });
    const { result } = bed.render(useAuth);
    await waitFor(() => expect(result.current.token).toBe('ann-token'));
    const heard: unknown[] = [];
    const stop = onSessionChange((key, value) => heard.push([key, value]));

    act(() => configureApi({ storage: platform.prepare({ token: 'ann-token', organization_slug: 'acme' }) }));
    await waitFor(() => expect(result.current.isReady).toBe(true));
    stop();

    expect(heard).toEqual([
      ['token', 'ann-token'],
      ['user', null],
      ['organization_slug', 'acme'],
      ['route_group', null],
    ]);
  });
});
