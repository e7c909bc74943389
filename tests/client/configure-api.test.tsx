// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { configureApi, getHttpClient, useAuth, useModelIndex, useOrganization } from '../../client/index.js';
import { createMemoryStorage } from '../../client/storage/memory-storage.js';
import { webPlatform } from './support/platforms.js';
import { useTestbed } from './support/testbed.js';

const bed = useTestbed(webPlatform);

// Refused, so no login persists a group that would then outrank the configured one.
const refused = { status: 422, body: { message: 'These credentials do not match our records.' } };

/** Tries to log in through a provider mounted now, which reads the configuration of this moment. */
async function logIn() {
  const { result, unmount } = bed.render(useAuth);
  await act(() => result.current.login('ann@acme.test', 'secret'));
  unmount();
  return bed.server.requests.at(-1)?.path;
}

describe('configureApi layers the options it is given over the current configuration', () => {
  it('keeps baseURL when a later call only clears the route group, and auth goes back to /auth/*', async () => {
    bed.start();
    bed.server.answer('POST', /\/auth\/login$/, refused);
    configureApi({ baseURL: bed.server.baseURL, routeGroup: 'admin' });
    expect(await logIn()).toBe('/api/admin/auth/login');

    configureApi({ routeGroup: null });

    expect(await logIn()).toBe('/api/auth/login');
  });

  it('keeps onUnauthorized and onForbidden across calls that do not name them, or pass undefined', async () => {
    const { onUnauthorized, onForbidden } = bed.start({ stored: { token: 'tok', organization_slug: 'acme' } });
    configureApi({ tenancy: 'none' });
    configureApi({ onUnauthorized: undefined, onForbidden: undefined, baseURL: undefined });
    bed.server.answer('GET', '/api/denied', { status: 403, body: { message: 'This action is unauthorized.' } });
    bed.server.answer('GET', '/api/expired', { status: 401, body: { message: 'Unauthenticated.' } });

    await expect(getHttpClient().get('/denied')).rejects.toThrow();
    await expect(getHttpClient().get('/expired')).rejects.toThrow();

    expect(onForbidden).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(bed.server.requests.map((request) => request.path)).toEqual(['/api/denied', '/api/expired']);
  });

  it('replaces a callback it is given', async () => {
    const { onForbidden } = bed.start();
    const replacement: string[] = [];
    configureApi({ onForbidden: (error) => replacement.push(error.response?.data?.message ?? '') });
    bed.server.answer('GET', '/api/denied', { status: 403, body: { message: 'This action is unauthorized.' } });

    await expect(getHttpClient().get('/denied')).rejects.toThrow();

    expect(replacement).toEqual(['This action is unauthorized.']);
    expect(onForbidden).not.toHaveBeenCalled();
  });

  it('puts an option given as null back to its default', async () => {
    const { onForbidden } = bed.start();
    bed.server.answer('GET', '/api/denied', { status: 403, body: { message: 'This action is unauthorized.' } });
    await expect(getHttpClient().get('/denied')).rejects.toThrow();
    expect(onForbidden).toHaveBeenCalledTimes(1);

    configureApi({ onForbidden: null });
    await expect(getHttpClient().get('/denied')).rejects.toThrow();
    expect(onForbidden).toHaveBeenCalledTimes(1);
    expect(bed.server.requests.map((request) => request.path)).toEqual(['/api/denied', '/api/denied']);

    configureApi({ baseURL: null });
    expect(getHttpClient().defaults.baseURL).toBe('/api');
  });

  it('keeps the session and its storage unless given a storage, which starts a session on it', async () => {
    bed.start();
    bed.server.answer('GET', '/api/ping', { body: {} });
    const given = createMemoryStorage();
    given.setItem('token', 'kept');
    configureApi({ storage: given });
    window.localStorage.setItem('token', 'in localStorage');

    configureApi({ routeGroup: 'admin' });
    await getHttpClient().get('/ping');
    configureApi({ storage: window.localStorage });
    await getHttpClient().get('/ping');

    expect(bed.server.requests.map((request) => request.headers.authorization)).toEqual(['Bearer kept', 'Bearer in localStorage']);
  });

  it('keeps the one HTTP client an app took before a later call: it follows the new base, session and callbacks', async () => {
    bed.start({ api: { baseURL: 'http://127.0.0.1:9/nowhere' } });
    // As an app's module-level `const api = getHttpClient()` does, before main() configures the client.
    const http = getHttpClient();
    const { onForbidden } = bed.start({ stored: { token: 'tok' } });
    bed.server.answer('GET', '/api/denied', { status: 403, body: { message: 'This action is unauthorized.' } });

    await expect(http.get('/denied')).rejects.toThrow();

    expect(getHttpClient()).toBe(http);
    expect(bed.server.requests.map((request) => [request.path, request.headers.authorization])).toEqual([['/api/denied', 'Bearer tok']]);
    expect(onForbidden).toHaveBeenCalledTimes(1);
  });

  it('reaches a provider already mounted: its session, data and auth requests follow at once', async () => {
    bed.start({ stored: { organization_slug: 'acme' }, api: { routeGroup: 'admin' } });
    bed.server.answer('GET', /\/posts$/, { body: { data: [] } });
    bed.server.answer('POST', /\/auth\/login$/, refused);
    const { result } = bed.render(() => ({ auth: useAuth(), organization: useOrganization(), posts: useModelIndex('posts') }));
    await waitFor(() => expect(result.current.posts.isSuccess).toBe(true));

    act(() => configureApi({ routeGroup: null, tenancy: 'none', storage: webPlatform.prepare({ organization_slug: 'globex' }) }));
    expect(result.current.organization).toBe('globex');
    await waitFor(() => expect(bed.server.requests).toHaveLength(2));
    await act(() => result.current.auth.login('ann@acme.test', 'secret'));

    expect(bed.server.requests.map((request) => request.line)).toEqual(['GET /api/acme/posts', 'GET /api/posts', 'POST /api/auth/login']);
  });
});
