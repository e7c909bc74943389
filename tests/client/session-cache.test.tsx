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
