// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuth, useModelIndex } from '../../client/index.js';
import { webPlatform } from './support/platforms.js';
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
