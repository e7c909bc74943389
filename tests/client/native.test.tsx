// @vitest-environment jsdom
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuth, useModelIndex } from '../../client/native.js';
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
