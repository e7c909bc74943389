// @vitest-environment jsdom
import { randomBytes } from 'node:crypto';
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getHttpClient, useAuth, useOrganizationExists, useUserRole } from '../../client/index.js';
import { renderClientHook } from '../client/support/testbed.js';
import { useLiveService } from './support/live-service.js';

const live = useLiveService();

describe('organizations seen from a signed-in page', () => {
  it('checks slugs as they are typed: taken, taken by one of mine, reserved, free', async () => {
    live.openPage();
    await live.signIn('owner@acme.test');
    const { result, rerender } = renderClientHook((slug: string) => useOrganizationExists(slug), { initialProps: 'globex' });

    const answerFor = async (slug: string) => {
      rerender(slug);
      await waitFor(() => expect(result.current.isLoading).toBe(false));
      return result.current;
    };

    expect(await answerFor('globex')).toEqual({ exists: true, isLoading: false, organization: null });
    expect(await answerFor('acme')).toEqual({ exists: true, isLoading: false, organization: { id: expect.any(Number), name: 'Acme Corporation', slug: 'acme' } });
    expect(await answerFor('invitations')).toEqual({ exists: true, isLoading: false, organization: null });
    expect(await answerFor('initech')).toEqual({ exists: false, isLoading: false, organization: null });
  });

  it('finds a route group name taken, though its check shares that group\'s URLs, and keeps the user signed in', async () => {
    const { onUnauthorized, onForbidden } = live.openPage();
    const { token } = await live.signIn('owner@acme.test');
    const { result } = renderClientHook(() => ({ auth: useAuth(), check: useOrganizationExists('admin') }));

    await waitFor(() => expect(result.current.check.isLoading).toBe(false));

    expect(result.current.check).toEqual({ exists: true, isLoading: false, organization: null });
    expect(onForbidden).not.toHaveBeenCalled();
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(result.current.auth).toMatchObject({ isAuthenticated: true, token });
    expect(live.stored().token).toBe(token);
  });

  it('makes the creator of an organization its owner, through the configured HTTP client', async () => {
    live.openPage();
    await live.signIn('viewer@acme.test');
    const { result } = renderClientHook(() => ({ auth: useAuth(), role: useUserRole() }));
    await waitFor(() => expect(result.current.role.data?.role).toBe('viewer'));

    // A slug of its own: the slug check above expects initech to be free.
    const slug = `initech-${randomBytes(4).toString('hex')}`;
    const created = await getHttpClient().post('/organizations', { name: 'Initech', slug });
    expect(created.status).toBe(201);
    await act(() => result.current.auth.setOrganization(slug));

    await waitFor(() => expect(result.current.role.data).toMatchObject({ role: 'owner', permissions: ['*'] }));
  });
});
