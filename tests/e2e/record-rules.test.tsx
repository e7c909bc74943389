// @vitest-environment jsdom
import { subject } from '@casl/ability';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AuthProvider, Can, useAbility } from '../../client/index.js';
import { renderClientHook } from '../client/support/testbed.js';
import { useLiveService } from './support/live-service.js';

// Issue 35: `<Can I="update" a="posts" this={post}>` in @gatehouse/client reads the record
// conditions the server compiled (the contributor's posts.update:own, posts.destroy:own): it shows
// a button exactly on the posts whose real request the server answers, and never one that is a 403.

const live = useLiveService();

interface Post {
  id: number;
  title: string;
  status: string;
  author_id: number | null;
}

const ACTIONS = ['update', 'destroy'] as const;

describe('record rules in @gatehouse/client', () => {
  it("shows the contributor's Edit and Delete buttons on its own posts only, as the server answers them", async () => {
    live.openPage();
    const { token } = await live.signIn('contributor@acme.test');
    const api = live.server.api;
    for (const [title, status] of [['My draft', 'draft'], ['My post', 'published']]) {
      expect((await api.post('/api/acme/posts', { token: token!, body: { title, status } })).status).toBe(201);
    }
    const posts = (await api.get('/api/acme/posts', { token: token! })).body.data as Post[];
    // Its own two and the seed's published posts, which it may read but not change.
    expect(posts.length).toBeGreaterThan(2);
    render(
      <AuthProvider>
        {posts.map((post) =>
          ACTIONS.map((action) => (
            <Can key={`${action} ${post.id}`} I={action} a="posts" this={post} fallback={<p>{`no ${action} ${post.title}`}</p>}>
              <p>{`${action} ${post.title}`}</p>
            </Can>
          )),
        )}
      </AuthProvider>,
    );
    await screen.findByText('update My draft');
    const shown = posts.flatMap((post) => ACTIONS.filter((action) => screen.queryByText(`${action} ${post.title}`) !== null).map((action) => `${action} ${post.title}`));
    expect(shown.sort()).toEqual(['destroy My draft', 'destroy My post', 'update My draft', 'update My post']);

    // What the server answers each of them, the hidden buttons included.
    const answered: string[] = [];
    for (const post of posts) {
      const update = await api.request('PATCH', `/api/acme/posts/${post.id}`, { token: token!, body: { title: post.title } });
      const destroy = await api.delete(`/api/acme/posts/${post.id}`, { token: token! });
      for (const [action, response] of [['update', update], ['destroy', destroy]] as const) {
        expect([200, 204, 403]).toContain(response.status);
        if (response.status !== 403) answered.push(`${action} ${post.title}`);
      }
    }
    expect(answered.sort()).toEqual(shown.sort());
  });

  it("answers can('index') on a record as the contributor's list holds it, though the policy allows the listing", async () => {
    live.openPage();
    const { token } = await live.signIn('contributor@acme.test');
    const api = live.server.api;
    const owner = await live.server.login('owner@acme.test');
    const all = (await api.get('/api/acme/posts?per_page=100', { token: owner })).body.data as Post[];
    const listed = new Set(((await api.get('/api/acme/posts?per_page=100', { token: token! })).body.data as Post[]).map((post) => post.id));
    expect(listed.size).toBeLessThan(all.length);
    const { result } = renderClientHook(() => useAbility());
    await waitFor(() => expect(result.current.can('index', 'posts')).toBe(true));
    const answered = all.map((post) => ({ id: post.id, listed: result.current.can('index', subject('posts', { ...post })) }));
    expect(answered).toEqual(all.map((post) => ({ id: post.id, listed: listed.has(post.id) })));
  });
});
