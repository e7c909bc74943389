import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// A cursor is a signed position, never an authority: carried by another user into another
// tenant it still answers only what that caller may read there.
let server: TestServer;
let tokens: Record<'acme' | 'globex', string>;

beforeAll(async () => {
  server = await startDataServer();
  tokens = { acme: await server.login('owner@acme.test'), globex: await server.login('owner@globex.test') };
});

afterAll(() => server.close());

type Post = { id: number; title: string; organization_id: number };
const page = (tenant: 'acme' | 'globex', token: string, cursor?: string) =>
  server.api.get(`/api/${tenant}/posts?sort=title&per_page=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token });

describe('a cursor carried elsewhere', () => {
  it('shows another tenant’s user only that tenant’s rows after the position', async () => {
    const first = await page('acme', tokens.acme);
    const cursor = first.headers['x-next-cursor'] as string;
    expect(cursor).toBeTruthy();
    const position = (first.body.data as Post[])[0]!.title;

    const carried = await page('globex', tokens.globex, cursor);
    expect(carried.status).toBe(200);
    const [globex] = await server.sql<{ id: number }>("SELECT id FROM organizations WHERE slug = 'globex'");
    const expected = await server.sql<{ title: string }>('SELECT title FROM posts WHERE organization_id = $1 AND title > $2 ORDER BY title, id LIMIT 1', [
      globex!.id,
      position,
    ]);
    const rows = carried.body.data as Post[];
    expect(rows.map((post) => post.title)).toEqual(expected.map((post) => post.title));
    expect(rows.every((post) => post.organization_id === globex!.id)).toBe(true);
  });

  it('opens nothing to a user outside the tenant it came from', async () => {
    const cursor = (await page('acme', tokens.acme)).headers['x-next-cursor'] as string;
    const outside = await page('acme', tokens.globex, cursor);
    expect(outside.status).toBe(404);
    expect(JSON.stringify(outside.body)).not.toMatch(/acme/i);
  });
});
