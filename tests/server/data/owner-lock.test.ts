import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postId, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// A child's owner parent must pass the parent's record gate (a comment hangs on a post its author
// may see, and not a deleted one) until the child is committed. The foreign key's check takes
// FOR KEY SHARE on the parent, which a soft delete (an UPDATE of another column) does not wait
// for: between the gate's read and the insert, another transaction could take the parent out of
// the gate, and the comment was created under a deleted post.

let server: TestServer;

beforeAll(async () => {
  server = await startDataServer();
});

afterAll(() => server.close());

const lockWaits = async () => (await server.sql<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"))[0]!.n;

describe('a child created under its owner parent', () => {
  it('waits for a transaction that is taking the parent out of its gate, then is refused', async () => {
    const post = await postId(server, 'Quarterly roadmap');
    const viewer = await server.login('viewer@acme.test');
    const deleting = new pg.Client({ connectionString: server.database.ownerUrl });
    await deleting.connect();
    try {
      await deleting.query('BEGIN');
      await deleting.query('UPDATE posts SET deleted_at = now() WHERE id = $1', [post]);
      const created = server.api.post('/api/acme/comments', { token: viewer, body: { post_id: post, body: 'Raced the delete' } });
      const waiting = vi.waitFor(async () => expect(await lockWaits()).toBe(1), { timeout: 30_000, interval: 50 });
      // Answered before the delete commits is the race itself: the gate read a parent on its way out.
      const first = await Promise.race([created.then(() => 'answered'), waiting.then(() => 'waiting')]);
      waiting.catch(() => {});
      expect(first).toBe('waiting');
      await deleting.query('COMMIT');
      const answer = await created;
      expect(answer.status).toBe(422);
      expect(answer.body.errors).toHaveProperty('post_id');
    } finally {
      await deleting.query('ROLLBACK').catch(() => {});
      await deleting.end();
    }
    expect(await server.sql("SELECT id FROM comments WHERE body = 'Raced the delete'")).toEqual([]);
  });

  it('does not wait for another child being created under the same parent', async () => {
    const post = await postId(server, 'Welcome to Acme');
    const viewer = await server.login('viewer@acme.test');
    // What a create in flight holds on its parent: a shared lock, which another create shares.
    const creating = new pg.Client({ connectionString: server.database.ownerUrl });
    await creating.connect();
    try {
      await creating.query('BEGIN');
      await creating.query('SELECT 1 FROM posts WHERE id = $1 FOR SHARE', [post]);
      const created = server.api.post('/api/acme/comments', { token: viewer, body: { post_id: post, body: 'Alongside' } });
      const waiting = vi.waitFor(async () => expect(await lockWaits()).toBe(1), { timeout: 30_000, interval: 50 });
      const first = await Promise.race([created.then(() => 'answered'), waiting.then(() => 'waiting')]);
      waiting.catch(() => {});
      expect(first).toBe('answered');
      expect((await created).status).toBe(201);
    } finally {
      await creating.query('ROLLBACK');
      await creating.end();
    }
  });
});
