import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postId, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// node-postgres reads an infinite timestamp as the number Infinity, which JSON writes as null: the
// browser would take a set timestamp for NULL, and a record condition's null check (issue 35)
// would answer there otherwise than in SQL. The service sends the text PostgreSQL writes.

let server: TestServer;

beforeAll(async () => {
  server = await startDataServer();
});

afterAll(() => server.close());

describe('an infinite timestamp', () => {
  it('reaches the client as the text PostgreSQL writes, in a record and in a list', async () => {
    const [future, past] = [await postId(server, 'Welcome to Acme'), await postId(server, 'Office move')];
    await server.sql(`UPDATE posts SET created_at = CASE id WHEN $1 THEN 'infinity'::timestamptz ELSE '-infinity' END WHERE id IN ($1, $2)`, [future, past]);
    const owner = await server.login('owner@acme.test');
    expect((await server.api.get(`/api/acme/posts/${future}`, { token: owner })).body.created_at).toBe('infinity');
    const listed = (await server.api.get('/api/acme/posts', { token: owner })).body.data as { id: number; created_at: unknown }[];
    expect(listed.filter((post) => post.id === future || post.id === past).map((post) => post.created_at).sort()).toEqual(['-infinity', 'infinity']);
  });
});

describe('an infinite timestamp in the audit trail', () => {
  it('is kept as its text, and an update that leaves it alone does not list it as changed', async () => {
    const post = await postId(server, 'Quarterly roadmap');
    await server.sql(`UPDATE posts SET created_at = 'infinity' WHERE id = $1`, [post]);
    const owner = await server.login('owner@acme.test');
    expect((await server.api.request('PATCH', `/api/acme/posts/${post}`, { token: owner, body: { title: 'Quarterly roadmap, forever' } })).status).toBe(200);
    const trail = (await server.api.get(`/api/acme/posts/${post}/audit`, { token: owner })).body.data as { action: string; old_values: object; new_values: object }[];
    const update = trail.find((entry) => entry.action === 'updated')!;
    expect(Object.keys(update.new_values).sort()).toEqual(['title', 'updated_at']);
    expect(update.old_values).toMatchObject({ title: 'Quarterly roadmap' });

    const created = await server.api.post('/api/acme/posts', { token: owner, body: { title: 'Endless', body: 'x', status: 'draft' } });
    await server.sql(`UPDATE posts SET deleted_at = '-infinity' WHERE id = $1`, [created.body.id]);
    expect((await server.api.delete(`/api/acme/posts/${created.body.id}/force-delete`, { token: owner })).status).toBe(204);
    const [logged] = await server.sql<{ old_values: Record<string, unknown> }>(`SELECT old_values FROM audit_logs WHERE record_id = $1 AND action = 'force_deleted'`, [String(created.body.id)]);
    expect(logged?.old_values.deleted_at).toBe('-infinity');
  });
});
