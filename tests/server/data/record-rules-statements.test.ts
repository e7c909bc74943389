import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idOf, postId, startDataServer } from '../support/data-server.js';
import type { ApiResponse } from '../support/http-client.js';
import type { TestServer } from '../support/test-server.js';

// Issue 35: every statement over posts reads through the contributor's record conditions
// (posts.index:visible, posts.show:visible, posts.update:own, posts.destroy:own, granted here
// also posts.trashed:own, posts.restore:own, posts.forceDelete:own and comments.store): a post
// outside them is missing from a list, a 404 where the contributor may not see it, a 403 where it
// may see it but not change it. Index, show, update and destroy are in record-rules.test.ts.

let server: TestServer;
let other: pg.Client;
let contributor: string;
let owner: string;
let editorId: number;
let contributorId: number;

beforeAll(async () => {
  server = await startDataServer();
  [contributor, owner] = await Promise.all([server.login('contributor@acme.test'), server.login('owner@acme.test')]);
  [editorId, contributorId] = await Promise.all([idOf(server, 'users', 'email', 'editor@acme.test'), idOf(server, 'users', 'email', 'contributor@acme.test')]);
  const granted = ['posts.trashed:own', 'posts.restore:own', 'posts.forceDelete:own', 'comments.store'];
  const member = await server.api.request('PATCH', `/api/acme/members/${contributorId}`, { token: owner, body: { granted_permissions: granted } });
  expect(member.status).toBe(200);
  other = new pg.Client({ connectionString: server.database.ownerUrl });
  await other.connect();
});

afterAll(async () => {
  await other.end();
  await server.close();
});

const ownPost = async (title: string) => (await server.api.post('/api/acme/posts', { token: contributor, body: { title, status: 'published' } })).body.id as number;
const postRow = async (id: number) => (await server.sql<{ title: string; deleted_at: Date | null }>('SELECT title, deleted_at FROM posts WHERE id = $1', [id]))[0]!;

/** A seeded post deleted by its author (the owner), so it waits in the trash. */
async function trashedSeed(title: string): Promise<number> {
  const id = await postId(server, title);
  expect((await server.api.delete(`/api/acme/posts/${id}`, { token: owner })).status).toBe(204);
  return id;
}

const refusal = (action: string) => ({ message: 'This action is unauthorized.', reason: { gate: 'policy', permission: `posts.${action}`, conditions: [`posts.${action}:own`] } });

describe('each statement reads through the conditions', () => {
  it('trashed lists its own deleted posts only; restore and force delete: 404 unseen, 403 seen but not its own', async () => {
    const mine = await ownPost('Mine to bin');
    expect((await server.api.delete(`/api/acme/posts/${mine}`, { token: contributor })).status).toBe(204);
    const [published, draft] = [await trashedSeed('Office move'), await trashedSeed('Hiring plan')];

    const trash = await server.api.get('/api/acme/posts/trashed', { token: contributor });
    expect(trash.status).toBe(200);
    expect(trash.body.data.map((post: { id: number }) => post.id)).toEqual([mine]);
    expect(trash.headers['x-total']).toBe('1');

    expect((await server.api.post(`/api/acme/posts/${draft}/restore`, { token: contributor })).status).toBe(404);
    expect((await server.api.delete(`/api/acme/posts/${draft}/force-delete`, { token: contributor })).status).toBe(404);
    const restore = await server.api.post(`/api/acme/posts/${published}/restore`, { token: contributor });
    expect([restore.status, restore.body]).toMatchObject([403, refusal('restore')]);
    const forceDelete = await server.api.delete(`/api/acme/posts/${published}/force-delete`, { token: contributor });
    expect([forceDelete.status, forceDelete.body]).toMatchObject([403, refusal('forceDelete')]);
    expect((await postRow(published)).deleted_at).not.toBeNull();

    expect((await server.api.post(`/api/acme/posts/${mine}/restore`, { token: contributor })).status).toBe(200);
    expect((await server.api.delete(`/api/acme/posts/${mine}/force-delete`, { token: contributor })).status).toBe(204);
    expect(await server.sql('SELECT id FROM posts WHERE id = $1', [mine])).toEqual([]);
  });

  it('an include reaches only the related posts the contributor may list', async () => {
    const comments = await server.api.get('/api/acme/comments?include=post', { token: contributor });
    expect(comments.status).toBe(200);
    const postOf = (body: string) => comments.body.data.find((comment: { body: string }) => comment.body === body).post;
    expect(postOf('Welcome!')).toMatchObject({ title: 'Welcome to Acme' });
    expect(postOf('Thanks for the write-up.')).toBeNull();
  });

  it('counts only the posts it may list', async () => {
    const [expected] = await server.sql<{ total: number; drafts: number }>(
      "SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'draft')::int AS drafts FROM posts WHERE organization_id = (SELECT id FROM organizations WHERE slug = 'acme') AND deleted_at IS NULL AND (status = 'published' OR author_id = $1)",
      [contributorId],
    );
    const computed = await server.api.get('/api/acme/posts/computed', { token: contributor });
    expect(computed.status).toBe(200);
    expect(computed.body).toMatchObject({ total: expected!.total, drafts: expected!.drafts });
  });

  it('nested operations: 403 for a post it may see but not change, 404 for one it may not see, 422 for a comment on it, and nothing of the request stays', async () => {
    const mine = await ownPost('Nested mine');
    const [published, draft] = [await postId(server, 'Quarterly roadmap'), await postId(server, 'Security review')];
    const nested = (operation: object) =>
      server.api.post('/api/acme/posts/nested', { token: contributor, body: { operations: [{ action: 'update', id: mine, data: { title: 'Changed' } }, operation] } });
    const seen = await nested({ action: 'update', id: published, data: { title: 'Taken' } });
    expect([seen.status, seen.body]).toMatchObject([403, refusal('update')]);
    expect((await nested({ action: 'delete', id: draft })).status).toBe(404);
    const hidden = await nested({ model: 'comments', action: 'create', data: { post_id: draft, body: 'On a hidden draft' } });
    expect([hidden.status, hidden.body.errors]).toEqual([422, { 'operations.1.post_id': ['The selected post id is invalid.'] }]);
    expect((await postRow(mine)).title).toBe('Nested mine');
    expect((await postRow(published)).title).toBe('Quarterly roadmap');
    expect(await server.sql("SELECT id FROM comments WHERE body = 'On a hidden draft'")).toEqual([]);

    const visible = await nested({ model: 'comments', action: 'create', data: { post_id: published, body: 'On a published post' } });
    expect(visible.status).toBe(200);
    expect(visible.body[1]).toMatchObject({ post_id: published });
  });
});

/** Resolves once a connection of the server's database waits on a row lock: the request has reached the changed row. */
async function untilWaitingOnLock(): Promise<void> {
  for (;;) {
    const [row] = await server.sql<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [server.database.name]);
    if (row!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Sends `request` while another transaction changes post `id` with `change`, and commits the change once the request waits for it. */
async function duringChange(id: number, change: string, request: () => Promise<ApiResponse>): Promise<ApiResponse> {
  await other.query('BEGIN');
  try {
    await other.query(`UPDATE posts SET ${change} WHERE id = $1`, [id]);
    const answer = request();
    await untilWaitingOnLock();
    await other.query('COMMIT');
    return await answer;
  } catch (error) {
    await other.query('ROLLBACK');
    throw error;
  }
}

// A write obeys the conditions on the record it writes, not on the record as it stood a moment
// before: another connection changes the contributor's post mid-request (it holds the row, the
// request waits on it, then the change commits), and the write judges the changed record.
describe('a write races a change of its record', () => {
  it('an update of a post handed to another author meanwhile is a 403 naming the condition, and changes nothing', async () => {
    const id = await ownPost('Handed over');
    const answer = await duringChange(id, `author_id = ${editorId}`, () => server.api.request('PATCH', `/api/acme/posts/${id}`, { token: contributor, body: { title: 'Still mine?' } }));
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ message: 'This action is unauthorized.', reason: { gate: 'policy', permission: 'posts.update', conditions: ['posts.update:own'] } });
    expect((await postRow(id)).title).toBe('Handed over');
  });

  it("a delete of a post that became another author's draft meanwhile is a 404, and deletes nothing", async () => {
    const id = await ownPost('Taken back');
    const answer = await duringChange(id, `author_id = ${editorId}, status = 'draft'`, () => server.api.delete(`/api/acme/posts/${id}`, { token: contributor }));
    expect(answer.status).toBe(404);
    expect((await postRow(id)).deleted_at).toBeNull();
  });

  it('a force delete of its trashed post handed to another author meanwhile is a 403, and the post stays', async () => {
    const id = await ownPost('Binned, then handed over');
    expect((await server.api.delete(`/api/acme/posts/${id}`, { token: contributor })).status).toBe(204);
    const answer = await duringChange(id, `author_id = ${editorId}`, () => server.api.delete(`/api/acme/posts/${id}/force-delete`, { token: contributor }));
    expect([answer.status, answer.body]).toMatchObject([403, refusal('forceDelete')]);
    expect((await postRow(id)).deleted_at).not.toBeNull();
  });
});
