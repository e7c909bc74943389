// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuth, useUserRole } from '../../client/index.js';
import { messageOf } from '../client/support/message-of.js';
import { failedQuery, renderClientHook } from '../client/support/testbed.js';
import { DEMO_PASSWORD } from '../server/support/test-server.js';
import { useLiveService } from './support/live-service.js';

const live = useLiveService({ membershipEnforcement: true });

const NOT_A_MEMBER = 'You are not a member of this group';

describe('route group membership enforced by the service', () => {
  it('refuses a login to a group the user is no member of with 403 and onForbidden, storing nothing', async () => {
    const { onForbidden, onUnauthorized } = live.openPage();
    const { result } = renderClientHook(() => useAuth());

    const login = await act(() => result.current.login('editor@acme.test', DEMO_PASSWORD, { routeGroup: 'admin' }));

    expect(login).toEqual({ success: false, status: 403, error: NOT_A_MEMBER });
    expect(onForbidden.mock.calls.map(([error]) => messageOf(error))).toEqual([NOT_A_MEMBER]);
    expect(live.stored()).toEqual({});
    expect(result.current.isAuthenticated).toBe(false);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('answers 403 once the membership is gone: the token is kept and onForbidden gets the message', async () => {
    const { onForbidden, onUnauthorized } = live.openPage();
    const { token } = await live.signIn('owner@globex.test');
    const page = renderClientHook(() => ({ auth: useAuth(), role: useUserRole() }));
    await waitFor(() => expect(page.result.current.role.data?.role).toBe('owner'));

    await live.server.sql("DELETE FROM user_roles WHERE user_id = (SELECT id FROM users WHERE email = 'owner@globex.test')");
    const error = await failedQuery(useUserRole);

    expect(messageOf(error)).toBe(NOT_A_MEMBER);
    expect(onForbidden).toHaveBeenCalledTimes(1);
    expect(messageOf(onForbidden.mock.calls[0]?.[0])).toBe(NOT_A_MEMBER);
    expect(live.stored()).toMatchObject({ token, organization_slug: 'globex' });
    expect(page.result.current.auth).toMatchObject({ isAuthenticated: true, token });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});
