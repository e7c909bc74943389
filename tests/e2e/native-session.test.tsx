// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { configureApi, useAuth, useOrganization, useUserRole } from '../../client/native.js';
import { nativePlatform, type StoredSession } from '../client/support/platforms.js';
import { renderClientHook } from '../client/support/testbed.js';
import { DEMO_PASSWORD } from '../server/support/test-server.js';
import { useLiveService } from './support/live-service.js';

const live = useLiveService();
const device = nativePlatform();

/** Starts the React Native app over AsyncStorage holding `stored`, as after a restart of the app. */
function launchApp(stored: StoredSession) {
  configureApi({ baseURL: `${live.server.api.baseUrl}/api`, storage: device.prepare(stored) });
  return renderClientHook(() => ({ auth: useAuth(), organization: useOrganization(), role: useUserRole() }));
}

describe('React Native (@gatehouse/client/native) against the real service', () => {
  it('keeps the session in AsyncStorage across an app restart, and logout ends it on the server too', async () => {
    const first = launchApp({});
    await waitFor(() => expect(first.result.current.auth.isReady).toBe(true));
    let storedOnResolve: StoredSession | undefined;
    const login = await act(() =>
      first.result.current.auth.login('editor@acme.test', DEMO_PASSWORD).then((answer) => {
        storedOnResolve = device.stored();
        return answer;
      }),
    );
    if (!login.success) throw new Error(login.error);
    const session = { token: login.token ?? '', user: JSON.stringify(login.user), organization_slug: 'acme' };
    expect(storedOnResolve).toEqual(session);
    await waitFor(() => expect(first.result.current.role.data?.role).toBe('editor'));
    first.unmount();

    const restarted = launchApp(device.stored());
    expect(restarted.result.current.auth).toMatchObject({ isReady: false, isAuthenticated: false });
    await waitFor(() => expect(restarted.result.current.role.data?.role).toBe('editor'));
    expect(restarted.result.current).toMatchObject({ auth: { isAuthenticated: true, token: login.token }, organization: 'acme' });

    await act(() => restarted.result.current.auth.logout());

    expect(device.stored()).toEqual({});
    expect(restarted.result.current).toMatchObject({ auth: { isAuthenticated: false, token: null }, organization: null });
    expect((await live.server.api.get('/api/acme/user-role', { token: session.token })).status).toBe(401);
  });
});
