// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  useAbility,
  useModelAudit,
  useModelDelete,
  useModelForceDelete,
  useModelIndex,
  useModelInfinite,
  useModelRestore,
  useModelShow,
  useModelStore,
  useModelTrashed,
  useModelUpdate,
  useNestedOperations,
} from '../../client/index.js';
import { messageOf } from '../client/support/message-of.js';
import { renderClientHook } from '../client/support/testbed.js';
import { useLiveService } from './support/live-service.js';

const live = useLiveService();

interface Post {
  id: number;
  title: string;
  body?: string | null;
  status?: string;
  internal_notes?: string | null;
  author_id: number;
}

/** The posts of an organization as the database holds them, past row-level security. */
async function postsOf(slug: string) {
  return live.server.sql<Pick<Post, 'id' | 'title'>>(
    'SELECT p.id, p.title FROM posts p JOIN organizations o ON o.id = p.organization_id WHERE o.slug = $1 AND p.deleted_at IS NULL ORDER BY p.title',
    [slug],
  );
}

const usePostsPage = (perPage: number) => ({ index: useModelIndex<Post>('posts', { sort: 'title', perPage }), store: useModelStore<Post>('posts') });

describe('posts through the model hooks', () => {
  it("lists the organization's posts a page at a time, with the pagination the server sends in headers", async () => {
    live.openPage();
    await live.signIn('editor@acme.test');
    const stored = await postsOf('acme');
    const { result } = renderClientHook(() => usePostsPage(2));

    await waitFor(() => expect(result.current.index.isSuccess).toBe(true));

    expect(result.current.index.data?.map((post) => post.title)).toEqual(stored.slice(0, 2).map((post) => post.title));
    expect(result.current.index.meta).toMatchObject({ currentPage: 1, lastPage: Math.ceil(stored.length / 2), perPage: 2, total: stored.length, totalEstimated: false });
  });

  it('creates a post as its author, and the list shows it', async () => {
    const { onForbidden } = live.openPage();
    const { user } = await live.signIn('editor@acme.test');
    const { result } = renderClientHook(() => usePostsPage(100));
    await waitFor(() => expect(result.current.index.isSuccess).toBe(true));

    const created = await act(() => result.current.store.mutateAsync({ title: 'Aardvarks at dawn', body: 'Seen from the page.', status: 'draft' }));

    expect(created).toMatchObject({ id: expect.any(Number), title: 'Aardvarks at dawn', status: 'draft', author_id: user?.id });
    await waitFor(() => expect(result.current.index.data?.map((post) => post.id)).toContain(created.id));
    expect(result.current.index.meta?.total).toBe((await postsOf('acme')).length);
    expect(onForbidden).not.toHaveBeenCalled();
  });

  it("refuses an editor's internal notes with 403 naming the field, keeps the token, creates nothing", async () => {
    const { onForbidden, onUnauthorized } = live.openPage();
    const { token } = await live.signIn('editor@acme.test');
    const before = await postsOf('acme');
    const { result } = renderClientHook(() => usePostsPage(100));

    const failure = await act(() => result.current.store.mutateAsync({ title: 'With notes', internal_notes: 'for the editors only' }).catch((error: unknown) => error));
    await waitFor(() => expect(result.current.store.isError).toBe(true));

    const message = 'You are not allowed to set the following field(s): internal_notes';
    expect(messageOf(failure)).toBe(message);
    expect(messageOf(result.current.store.error)).toBe(message);
    expect(onForbidden.mock.calls.map(([error]) => messageOf(error))).toEqual([message]);
    expect(live.stored().token).toBe(token);
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(await postsOf('acme')).toEqual(before);
  });

  it('lets an owner set internal notes, which a viewer never sees', async () => {
    live.openPage();
    await live.signIn('owner@acme.test');
    const owners = renderClientHook(() => usePostsPage(100));
    const created = await act(() => owners.result.current.store.mutateAsync({ title: 'Board minutes', internal_notes: 'owners and editors' }));
    expect(created).toMatchObject({ title: 'Board minutes', internal_notes: 'owners and editors' });

    live.openPage();
    await live.signIn('viewer@acme.test');
    const { result } = renderClientHook(() => usePostsPage(100));
    await waitFor(() => expect(result.current.index.isSuccess).toBe(true));

    const seen = result.current.index.data?.find((post) => post.id === created.id);
    expect(seen).toMatchObject({ title: 'Board minutes' });
    expect(seen).not.toHaveProperty('internal_notes');
  });

  it("refuses a viewer's new post with 403, keeping the session", async () => {
    const { onForbidden } = live.openPage();
    const { token } = await live.signIn('viewer@acme.test');
    const { result } = renderClientHook(() => usePostsPage(100));

    const failure = await act(() => result.current.store.mutateAsync({ title: 'Not mine to write' }).catch((error: unknown) => error));

    expect(messageOf(failure)).toBe('This action is unauthorized.');
    expect(onForbidden).toHaveBeenCalledTimes(1);
    expect(live.stored().token).toBe(token);
  });

  it('pages through every post with useModelInfinite by cursor, stopping where the server names no next one', async () => {
    live.openPage();
    await live.signIn('viewer@acme.test');
    const stored = await postsOf('acme');
    const { result } = renderClientHook(() => useModelInfinite<Post>('posts', { sort: 'title', perPage: 2 }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));

    while (result.current.hasNextPage) {
      const loaded = result.current.data?.pages.length ?? 0;
      await act(() => result.current.fetchNextPage());
      await waitFor(() => expect(result.current.data?.pages.length).toBe(loaded + 1));
    }

    const pages = result.current.data?.pages ?? [];
    expect(pages.flatMap((page) => page.data.map((post) => post.title))).toEqual(stored.map((post) => post.title));
    expect(pages.length).toBe(Math.ceil(stored.length / 2));
    expect(pages.map((page) => page.meta.currentPage)).toEqual(pages.map((_page, index) => (index === 0 ? 1 : null)));
    expect(pages.at(-1)?.meta.nextCursor).toBeNull();
  });

  it("takes an editor's post through update, trash and restore, refuses the force delete the rules deny, and keeps the history", async () => {
    const { onForbidden } = live.openPage();
    await live.signIn('editor@acme.test');
    const page = renderClientHook(() => ({
      ability: useAbility(),
      index: useModelIndex<Post>('posts', { perPage: 100 }),
      trashed: useModelTrashed<Post>('posts'),
      store: useModelStore<Post>('posts'),
      update: useModelUpdate<Post>('posts'),
      destroy: useModelDelete('posts'),
      restore: useModelRestore<Post>('posts'),
      forceDelete: useModelForceDelete('posts'),
    }));
    const { result } = page;
    const listed = (id: number) => ({
      index: result.current.index.data?.some((post) => post.id === id),
      trashed: result.current.trashed.data?.some((post) => post.id === id),
    });
    await waitFor(() => expect(result.current.ability.can('update', 'posts')).toBe(true));
    expect(result.current.ability.can('forceDelete', 'posts')).toBe(false);

    const { id } = await act(() => result.current.store.mutateAsync({ title: 'First draft' }));
    expect(await act(() => result.current.update.mutateAsync({ id, data: { title: 'Second draft', status: 'published' } }))).toMatchObject({
      id,
      title: 'Second draft',
      status: 'published',
    });
    const shown = renderClientHook(() => useModelShow<Post>('posts', id));
    await waitFor(() => expect(shown.result.current.data).toMatchObject({ id, title: 'Second draft' }));

    await act(() => result.current.destroy.mutateAsync(id));
    await waitFor(() => expect(listed(id)).toEqual({ index: false, trashed: true }));
    await act(() => result.current.restore.mutateAsync(id));
    await waitFor(() => expect(listed(id)).toEqual({ index: true, trashed: false }));

    const refused = await act(() => result.current.forceDelete.mutateAsync(id).catch((error: unknown) => error));
    expect(messageOf(refused)).toBe('This action is unauthorized.');
    expect(onForbidden).toHaveBeenCalledTimes(1);

    const history = renderClientHook(() => useModelAudit<{ action: string }>('posts', id));
    await waitFor(() => expect(history.result.current.data?.map((entry) => entry.action)).toEqual(['created', 'updated', 'deleted', 'restored']));
  });

  it('applies nested operations across models together, or none of them when one is refused', async () => {
    live.openPage();
    await live.signIn('editor@acme.test');
    const [target] = await postsOf('acme');
    if (!target) throw new Error('acme has no posts');
    const { id } = target;
    const { result } = renderClientHook(() => ({
      post: useModelShow<Post>('posts', id),
      comments: useModelIndex<{ body: string }>('comments', { filter: { post_id: id } }),
      nested: useNestedOperations(),
    }));
    await waitFor(() => expect(result.current.comments.isSuccess).toBe(true));

    const results = await act(() =>
      result.current.nested.mutateAsync([
        { model: 'posts', action: 'update', id, data: { title: 'Renamed together' } },
        { model: 'comments', action: 'create', data: { post_id: '$0.id', body: 'Said together' } },
      ]),
    );

    expect(results).toMatchObject([
      { id, title: 'Renamed together' },
      { id: expect.any(Number), post_id: id, body: 'Said together' },
    ]);
    await waitFor(() => expect(result.current.post.data?.title).toBe('Renamed together'));
    await waitFor(() => expect(result.current.comments.data?.map((comment) => comment.body)).toContain('Said together'));

    const refused = await act(() =>
      result.current.nested
        .mutateAsync([
          { model: 'posts', action: 'update', id, data: { title: 'Never applied' } },
          { model: 'posts', action: 'update', id, data: { internal_notes: 'not for editors to set' } },
        ])
        .catch((error: unknown) => error),
    );

    expect(messageOf(refused)).toBe('You are not allowed to set the following field(s): internal_notes');
    expect((await postsOf('acme')).find((post) => post.id === id)?.title).toBe('Renamed together');
  });
});
