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
