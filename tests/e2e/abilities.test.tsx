// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AuthProvider, Can, useAbility, useAuthorize } from '../../client/index.js';
import { renderClientHook } from '../client/support/testbed.js';
import { useLiveService } from './support/live-service.js';

// Issue 22, item 2: model-level checks follow the server's policies, record checks go through authorize.

const live = useLiveService();

describe('abilities in @gatehouse/client', () => {
  it('hides the New post button from a viewer granted posts.store, as POST posts refuses them', async () => {
    await live.server.sql("UPDATE user_roles SET granted_permissions = array_append(granted_permissions, 'posts.store') WHERE user_id = (SELECT id FROM users WHERE email = 'viewer@acme.test')");
    live.openPage();
    await live.signIn('viewer@acme.test');
    const { result } = renderClientHook(() => useAbility());
    await waitFor(() => expect(result.current.can('index', 'posts')).toBe(true));
    expect(result.current.can('store', 'posts')).toBe(false);
    expect(result.current.can('store', 'comments')).toBe(true);
    render(
      <AuthProvider>
        <Can I="index" a="posts">
          <p>posts list</p>
        </Can>
        <Can I="store" a="posts" fallback={<p>no new post</p>}>
          <p>new post</p>
        </Can>
      </AuthProvider>,
    );
    expect(await screen.findByText('posts list')).toBeTruthy();
    expect(screen.getByText('no new post')).toBeTruthy();
    expect(screen.queryByText('new post')).toBeNull();
  });

  it('answers record checks in one authorize request, in order', async () => {
    live.openPage();
    await live.signIn('editor@acme.test');
    const [post] = await live.server.sql<{ id: number }>("SELECT id FROM posts WHERE title = 'Welcome to Acme'");
    const [foreign] = await live.server.sql<{ id: number }>("SELECT id FROM posts WHERE title = 'Globex secrets'");
    const checks = [
      { model: 'posts', action: 'update', id: post!.id },
      { model: 'posts', action: 'forceDelete', id: post!.id },
      { model: 'posts', action: 'update', id: foreign!.id },
    ];
    const { result } = renderClientHook(() => useAuthorize(checks));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data!.map((answer) => answer.allowed)).toEqual([true, false, false]);
    expect(result.current.data![1]!.reason).toEqual({ gate: 'policy', permission: 'posts.forceDelete', denied: true });
  });
});
