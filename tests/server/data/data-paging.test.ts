import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineModel } from '../../../server/models/define-model.js';
import { demoPostTitles } from '../../support/demo.js';
import { startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// Counting (`Prefer: count=...`) and keyset pages (`?cursor=`) over HTTP, as the owner of acme.

let server: TestServer;
let owner: string;

beforeAll(async () => {
  server = await startDataServer();
  owner = await server.login('owner@acme.test');
});

afterAll(() => server.close());

const get = (path: string, headers: Record<string, string> = {}) => server.api.get(`/api/acme${path}`, { token: owner, headers });
const titles = (body: { data: { title: string }[] }) => body.data.map((post) => post.title);

/** Every page of a listing, following X-Next-Cursor; `between` runs after the first page. */
async function walk(query: string, between?: () => Promise<void>) {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const response = await get(`/posts?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(response.status).toBe(200);
    pages.push(titles(response.body));
    cursor = response.headers['x-next-cursor'] as string | undefined;
    if (pages.length === 1) await between?.();
  } while (cursor && pages.length < 50);
  return pages;
}

describe('Prefer: count', () => {
  it('counts exactly by default and says nothing of a preference it was not sent', async () => {
    const response = await get('/posts?per_page=2');
    expect(response.headers).toMatchObject({ 'x-total': '5', 'x-last-page': '3' });
    expect(response.headers['preference-applied']).toBeUndefined();
    expect(response.headers['x-total-estimated']).toBeUndefined();
  });

  it('answers count=planned with the planner’s estimate, marked as one', async () => {
    const response = await get('/posts?per_page=2', { Prefer: 'count=planned' });
    expect(response.status).toBe(200);
    expect(response.headers['preference-applied']).toBe('count=planned');
    expect(response.headers['x-total-estimated']).toBe('true');
    expect(Number(response.headers['x-total'])).toBeGreaterThanOrEqual(1);
    expect(Number(response.headers['x-last-page'])).toBe(Math.max(1, Math.ceil(Number(response.headers['x-total']) / 2)));
    expect(titles(response.body)).toHaveLength(2);
  });

  it('counts exactly under count=estimated while the rows are few', async () => {
    const response = await get('/posts?per_page=2', { Prefer: 'count=estimated' });
    expect(response.headers).toMatchObject({ 'preference-applied': 'count=estimated', 'x-total': '5', 'x-last-page': '3' });
    expect(response.headers['x-total-estimated']).toBeUndefined();
  });

  it('leaves the total out under count=none', async () => {
    const response = await get('/posts?per_page=2', { Prefer: 'return=minimal, count=none' });
    expect(response.status).toBe(200);
    expect(response.headers['preference-applied']).toBe('count=none');
    expect(response.headers['x-total']).toBeUndefined();
    expect(response.headers['x-last-page']).toBeUndefined();
    expect(response.headers).toMatchObject({ 'x-current-page': '1', 'x-per-page': '2' });
  });

  it('ignores a count it does not know, as preferences are wishes', async () => {
    const response = await get('/posts', { Prefer: 'count=everything' });
    expect(response.status).toBe(200);
    expect(response.headers['preference-applied']).toBeUndefined();
    expect(response.headers['x-total']).toBe('5');
  });

  it('lets a model choose its default, and refuses one it does not know', () => {
    const base = { slug: 'notes', tenantOwned: true, attributes: { title: 'string' as const }, fillable: ['title'] };
    expect(defineModel({ ...base, count: 'planned' }).count).toBe('planned');
    expect(defineModel(base).count).toBe('exact');
    expect(() => defineModel({ ...base, count: 'all' as never })).toThrow('count must be one of exact, planned, estimated, none');
  });
});

describe('?cursor=', () => {
  it('walks the same rows as the pages, in the same order', async () => {
    const all = titles((await get('/posts?per_page=100')).body);
    expect([...all].sort()).toEqual([...demoPostTitles('acme')].sort());
    expect(await walk('per_page=2')).toEqual([all.slice(0, 2), all.slice(2, 4), all.slice(4)]);
  });

  it('walks a descending sort on a timestamp with equal values, ties broken by the key', async () => {
    await server.sql(`UPDATE posts SET created_at = '2026-01-01T00:00:00.123456Z' WHERE organization_id = (SELECT id FROM organizations WHERE slug = 'acme')`);
    const byPage = titles((await get('/posts?sort=-created_at&per_page=100')).body);
    expect((await walk('sort=-created_at&per_page=2')).flat()).toEqual(byPage);
  });

  it('neither repeats nor skips a row when rows are inserted while walking', async () => {
    const before = titles((await get('/posts?per_page=100')).body);
    const pages = await walk('per_page=2', async () => {
      const created = await server.api.post('/api/acme/posts', { token: owner, body: { title: 'Inserted while walking' } });
      expect(created.status).toBe(201);
    });
    expect(pages.flat()).toEqual([...before, 'Inserted while walking']);
    await server.sql(`DELETE FROM posts WHERE title = 'Inserted while walking'`);
  });

  it('answers 400 for a tampered cursor, one of another sort, and a cursor beside a page', async () => {
    const first = await get('/posts?per_page=2');
    const cursor = first.headers['x-next-cursor'] as string;
    expect(cursor).toMatch(/^[\w-]+$/);
    const bytes = Buffer.from(cursor, 'base64url');
    const flipped = (at: number) => Buffer.from(bytes.map((byte, index) => (index === at ? byte ^ 1 : byte))).toString('base64url');
    for (const path of [
      `/posts?per_page=2&cursor=${flipped(bytes.length >> 1)}`,
      `/posts?per_page=2&cursor=${flipped(bytes.length - 1)}`,
      `/posts?per_page=2&cursor=${cursor.slice(0, -4)}`,
      `/posts?per_page=2&cursor=${cursor}!`,
      `/posts?per_page=2&cursor=not-a-cursor`,
      `/posts?per_page=2&sort=title&cursor=${encodeURIComponent(cursor)}`,
      `/comments?per_page=2&cursor=${encodeURIComponent(cursor)}`,
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(400);
      expect(response.body.message).toMatch(/^Invalid cursor|^Unknown/);
    }
    const withPage = await get(`/posts?page=2&cursor=${encodeURIComponent(cursor)}`);
    expect(withPage.status).toBe(400);
    expect(withPage.body).toEqual({ message: 'page and cursor cannot be combined: a cursor is a position of its own.' });
  });

  it('gives no next cursor on the last page', async () => {
    const last = await get('/posts?per_page=100');
    expect(last.headers['x-next-cursor']).toBeUndefined();
  });
});
