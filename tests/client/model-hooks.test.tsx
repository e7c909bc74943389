// @vitest-environment jsdom
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  useAuth,
  useModelAudit,
  useModelComputedAttributes,
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
import { webPlatform } from './support/platforms.js';
import { useTestbed } from './support/testbed.js';

const bed = useTestbed(webPlatform);

const post = { id: 7, title: 'Hello', status: 'draft' };
const pageHeaders = (page: number) => ({ 'X-Current-Page': String(page), 'X-Last-Page': '2', 'X-Per-Page': '1', 'X-Total': '2' });
const start = () => bed.start({ stored: { token: 'tok', organization_slug: 'acme' } });

describe('reads', () => {
  it('index sends every query option and exposes the pagination headers', async () => {
    start();
    bed.server.answer('GET', '/api/acme/posts', { body: { data: [post] }, headers: pageHeaders(1) });
    const { result } = bed.render(() =>
      useModelIndex('posts', {
        filter: { status: ['draft', 'published'], author_id: 3 },
        sort: ['-created_at', 'title'],
        search: 'hello world',
        include: ['author', 'comments.author'],
        fields: { posts: ['id', 'title'] },
        page: 1,
        perPage: 1,
        scope: 'mine',
      }),
    );
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toEqual([post]);
    expect(result.current.meta).toEqual({ currentPage: 1, lastPage: 2, perPage: 1, total: 2, totalEstimated: false, countApplied: null, nextCursor: null });
    expect(bed.server.requests[0]?.query).toEqual({
      'filter[status]': 'draft,published',
      'filter[author_id]': '3',
      sort: '-created_at,title',
      search: 'hello world',
      include: 'author,comments.author',
      'fields[posts]': 'id,title',
      page: '1',
      per_page: '1',
      scope: 'mine',
    });
  });

  it("takes rhino-react's option names too: includes, filters and per_page", async () => {
    start();
    bed.server.answer('GET', /\/posts/, { body: { data: [post] } });
    const { result } = bed.render(() => ({
      index: useModelIndex('posts', { includes: ['author', 'comments.author'], filters: { status: 'draft' }, per_page: 5 }),
      show: useModelShow('posts', 7, { includes: ['author'] }),
    }));
    await waitFor(() => expect(result.current.index.isSuccess && result.current.show.isSuccess).toBe(true));
    expect(bed.server.requests.map((request) => request.line).sort()).toEqual([
      'GET /api/acme/posts/7?include=author',
      'GET /api/acme/posts?filter[status]=draft&include=author,comments.author&per_page=5',
    ]);
  });

  it('infinite index reads the next pages by cursor until there is none', async () => {
    start();
    bed.server.answer('GET', '/api/acme/posts', (request) => {
      const at = request.query.cursor === undefined ? 1 : Number(request.query.cursor.replace('after-', '')) + 1;
      const headers: Record<string, string> = at < 3 ? { 'X-Next-Cursor': `after-${at}`, 'X-Per-Page': '1' } : { 'X-Per-Page': '1' };
      return { body: { data: [{ id: at }] }, headers };
    });
    const { result } = bed.render(() => useModelInfinite('posts', { sort: 'title', count: 'none' }));
    await waitFor(() => expect(result.current.hasNextPage).toBe(true));
    await act(() => result.current.fetchNextPage());
    await act(() => result.current.fetchNextPage());
    await waitFor(() => expect(result.current.data?.pages.flatMap((page) => page.data)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]));
    expect(result.current.hasNextPage).toBe(false);
    expect(bed.server.requests.map((request) => request.query)).toEqual([{ sort: 'title' }, { sort: 'title', cursor: 'after-1' }, { sort: 'title', cursor: 'after-2' }]);
    expect(bed.server.requests.map((request) => request.headers.prefer)).toEqual(['count=none', 'count=none', 'count=none']);
  });

  it('index asks for the count it is given and reports whether the total is an estimate', async () => {
    start();
    bed.server.answer('GET', '/api/acme/posts', {
      body: { data: [post] },
      headers: { 'X-Current-Page': '1', 'X-Last-Page': '4000', 'X-Per-Page': '25', 'X-Total': '100000', 'X-Total-Estimated': 'true', 'Preference-Applied': 'count=planned', 'X-Next-Cursor': 'c1' },
    });
    const { result } = bed.render(() => useModelIndex('posts', { perPage: 25, count: 'planned' }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.meta).toEqual({ currentPage: 1, lastPage: 4000, perPage: 25, total: 100000, totalEstimated: true, countApplied: 'planned', nextCursor: 'c1' });
    expect(bed.server.requests[0]?.headers.prefer).toBe('count=planned');
    expect(bed.server.requests[0]?.query).toEqual({ per_page: '25' });
  });

  it.each<[string, () => { isSuccess: boolean; data: unknown }, string, unknown, unknown]>([
    ['show', () => useModelShow('posts', 7, { include: 'author' }), 'GET /api/acme/posts/7?include=author', post, post],
    ['trashed', () => useModelTrashed('posts'), 'GET /api/acme/posts/trashed', { data: [post] }, [post]],
    ['audit', () => useModelAudit('posts', 7), 'GET /api/acme/posts/7/audit', { data: [{ action: 'updated' }] }, [{ action: 'updated' }]],
    ['computed', () => useModelComputedAttributes('posts'), 'GET /api/acme/posts/computed', { total: 2 }, { total: 2 }],
  ])('%s returns what the server answered', async (_name, hook, line, body, expected) => {
    start();
    bed.server.answer('GET', /.*/, { body });
    const { result } = bed.render(hook);
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toEqual(expected);
    expect(bed.server.requests.map((request) => request.line)).toEqual([line]);
  });

  it('audit pages the history as the index does, with the pagination headers as meta', async () => {
    start();
    bed.server.answer('GET', '/api/acme/posts/7/audit', { body: { data: [{ action: 'updated' }] }, headers: pageHeaders(2) });
    const { result } = bed.render(() => useModelAudit('posts', 7, { page: 2, perPage: 1 }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toEqual([{ action: 'updated' }]);
    expect(result.current.meta).toMatchObject({ currentPage: 2, lastPage: 2, perPage: 1, total: 2 });
    expect(bed.server.requests.map((request) => request.line)).toEqual(['GET /api/acme/posts/7/audit?page=2&per_page=1']);
  });

  it('waits for an id before showing a record', async () => {
    start();
    const { result } = bed.render(() => useModelShow('posts', null));
    expect(result.current.fetchStatus).toBe('idle');
  });

  it('reads the new organization after a switch', async () => {
    start();
    bed.server.answer('GET', /\/posts$/, (request) => ({ body: { data: [{ from: request.path }] } }));
    const { result } = bed.render(() => ({ auth: useAuth(), posts: useModelIndex('posts') }));
    await waitFor(() => expect(result.current.posts.data).toEqual([{ from: '/api/acme/posts' }]));
    await act(() => result.current.auth.setOrganization('globex'));
    await waitFor(() => expect(result.current.posts.data).toEqual([{ from: '/api/globex/posts' }]));
  });
});

function useWrites() {
  return {
    store: useModelStore('posts'),
    update: useModelUpdate('posts'),
    destroy: useModelDelete('posts'),
    restore: useModelRestore('posts'),
    forceDelete: useModelForceDelete('posts'),
    nested: useNestedOperations(),
    posts: useModelIndex('posts'),
    comments: useModelIndex('comments'),
  };
}

type Writes = ReturnType<typeof useWrites>;

const nestedOperations = [
  { model: 'posts', action: 'update' as const, id: 7, data: { title: 'New' } },
  { model: 'comments', action: 'create' as const, data: { body: 'Hi', post_id: '$0.id' } },
];

const writes: {
  name: string;
  run: (hooks: Writes) => Promise<unknown>;
  answer: { status: number; body?: unknown };
  resolves: unknown;
  sent: unknown;
  refetched: ('posts' | 'comments')[];
}[] = [
  { name: 'store', run: (h) => h.store.mutateAsync({ title: 'Hello' }), answer: { status: 201, body: post }, resolves: post, sent: { title: 'Hello' }, refetched: ['posts'] },
  { name: 'update', run: (h) => h.update.mutateAsync({ id: 7, data: { title: 'New' } }), answer: { status: 200, body: { ...post, title: 'New' } }, resolves: { ...post, title: 'New' }, sent: { title: 'New' }, refetched: ['posts'] },
  { name: 'delete', run: (h) => h.destroy.mutateAsync(7), answer: { status: 204 }, resolves: undefined, sent: undefined, refetched: ['posts'] },
  { name: 'restore', run: (h) => h.restore.mutateAsync(7), answer: { status: 200, body: post }, resolves: post, sent: undefined, refetched: ['posts'] },
  { name: 'force delete', run: (h) => h.forceDelete.mutateAsync(7), answer: { status: 204 }, resolves: undefined, sent: undefined, refetched: ['posts'] },
  { name: 'nested, given {operations} as rhino-react takes them', run: (h) => h.nested.mutateAsync({ operations: nestedOperations }), answer: { status: 200, body: [post, { id: 1, deleted: true }] }, resolves: [post, { id: 1, deleted: true }], sent: { operations: nestedOperations }, refetched: ['posts', 'comments'] },
  { name: 'nested', run: (h) => h.nested.mutateAsync(nestedOperations), answer: { status: 200, body: [post, { id: 1, deleted: true }] }, resolves: [post, { id: 1, deleted: true }], sent: { operations: nestedOperations }, refetched: ['posts', 'comments'] },
];

describe('writes', () => {
  it.each<[string, (h: Writes) => Promise<unknown>, string[]]>([
    ['delete', (h) => h.destroy.mutateAsync(7), ['show']],
    ['force delete', (h) => h.forceDelete.mutateAsync(7), ['show', 'audit']],
  ])("%s leaves the deleted record's own queries as they were, refetching the rest", async (_name, remove, rested) => {
    start();
    let deleted = false;
    bed.server.answer('DELETE', /\/posts\/7/, () => {
      deleted = true;
      return { status: 204 };
    });
    bed.server.answer('GET', /\/posts/, (request) =>
      deleted && request.path !== '/api/acme/posts' ? { status: 404, body: { message: 'Resource not found' } } : { body: request.path.endsWith('/audit') ? { data: [] } : post },
    );
    bed.server.answer('GET', '/api/acme/posts', () => ({ body: { data: deleted ? [] : [post] } }));
    // The id as a page's route gives it: a string, where the Delete button passes the number.
    const { result } = bed.render(() => ({ ...useWrites(), show: useModelShow('posts', '7'), audit: useModelAudit('posts', '7') }));
    await waitFor(() => expect(result.current.show.isSuccess && result.current.audit.isSuccess && result.current.posts.isSuccess).toBe(true));
    const before = bed.server.requests.length;

    await act(() => remove(result.current));

    await waitFor(() => expect(result.current.posts.data).toEqual([]));
    expect(result.current.show).toMatchObject({ data: post, isError: false });
    const refetched = bed.server.requests.slice(before).filter((request) => request.method === 'GET').map((request) => request.path);
    expect(refetched.filter((path) => path === '/api/acme/posts/7')).toEqual(rested.includes('show') ? [] : ['/api/acme/posts/7']);
    expect(refetched.filter((path) => path === '/api/acme/posts/7/audit')).toEqual(rested.includes('audit') ? [] : ['/api/acme/posts/7/audit']);
  });


  it.each(writes)('$name resolves to the answer and refetches the models it touched', async (write) => {
    start();
    let version = 0;
    bed.server.answer('*', /\/(posts|nested)(\/|$)/, () => {
      version += 1;
      return write.answer;
    });
    bed.server.answer('GET', /\/(posts|comments)$/, () => ({ body: { data: [{ version }] } }));
    const { result } = bed.render(useWrites);
    await waitFor(() => expect(result.current.comments.isSuccess && result.current.posts.isSuccess).toBe(true));
    await act(async () => {
      await expect(write.run(result.current)).resolves.toEqual(write.resolves);
    });
    expect(bed.server.writes().map((request) => request.body)).toEqual([write.sent]);
    // The write resolves only after the refetch it caused has been answered.
    const afterWrite = bed.server.requests.slice(bed.server.requests.findIndex((request) => request.method !== 'GET') + 1);
    expect(afterWrite.map((request) => request.path).sort()).toEqual(write.refetched.map((model) => `/api/acme/${model}`).sort());
    await waitFor(() =>
      expect({ posts: result.current.posts.data, comments: result.current.comments.data }).toEqual({
        posts: [{ version: write.refetched.includes('posts') ? 1 : 0 }],
        comments: [{ version: write.refetched.includes('comments') ? 1 : 0 }],
      }),
    );
  });
});
