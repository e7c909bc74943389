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

/** Whether `answer` comes before its request waits for a lock held elsewhere. */
async function answeredOrWaiting(answer: Promise<unknown>): Promise<'answered' | 'waiting'> {
  const waiting = vi.waitFor(async () => expect(await lockWaits()).toBe(1), { timeout: 30_000, interval: 50 });
  waiting.catch(() => {});
  return Promise.race([answer.then(() => 'answered' as const), waiting.then(() => 'waiting' as const)]);
}

/** Runs `during` while another connection's open transaction has run `statement` on the post; `during` may commit it. */
async function whileHeld(statement: string, post: number, during: (held: pg.Client) => Promise<void>): Promise<void> {
  const held = new pg.Client({ connectionString: server.database.ownerUrl });
  await held.connect();
  try {
    await held.query('BEGIN');
    await held.query(statement, [post]);
    await during(held);
  } finally {
    await held.query('ROLLBACK').catch(() => {});
    await held.end();
  }
}

const comment = (token: string, post: number, body: string) => server.api.post('/api/acme/comments', { token, body: { post_id: post, body } });

describe('a child created under its owner parent', () => {
  it('waits for a transaction that is taking the parent out of its gate, then is refused', async () => {
    const post = await postId(server, 'Quarterly roadmap');
    const viewer = await server.login('viewer@acme.test');
    await whileHeld('UPDATE posts SET deleted_at = now() WHERE id = $1', post, async (held) => {
      const created = comment(viewer, post, 'Raced the delete');
      // Answered before the delete commits is the race itself: the gate read a parent on its way out.
      expect(await answeredOrWaiting(created)).toBe('waiting');
      await held.query('COMMIT');
      const answer = await created;
      expect(answer.status).toBe(422);
      expect(answer.body.errors).toHaveProperty('post_id');
    });
    expect(await server.sql("SELECT id FROM comments WHERE body = 'Raced the delete'")).toEqual([]);
  });

  it('does not wait for another child being created under the same parent', async () => {
    const post = await postId(server, 'Welcome to Acme');
    const viewer = await server.login('viewer@acme.test');
    // What a create in flight holds on its parent: a shared lock, which another create shares.
    await whileHeld('SELECT 1 FROM posts WHERE id = $1 FOR SHARE', post, async () => {
      const created = comment(viewer, post, 'Alongside');
      expect(await answeredOrWaiting(created)).toBe('answered');
      expect((await created).status).toBe(201);
    });
  });
});
