import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPostTitles } from '../../support/demo.js';
import { idOf, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// Index, show and their query parameters over HTTP, as the editor of acme (5 seeded posts).
// Nothing here writes, so every case sees the seed.

let server: TestServer;
let editor: string;
let ownerId: number;

beforeAll(async () => {
  server = await startDataServer();
  editor = await server.login('editor@acme.test');
  ownerId = await idOf(server, 'users', 'email', 'owner@acme.test');
});

afterAll(() => server.close());

const get = (path: string) => server.api.get(`/api/acme${path}`, { token: editor });

describe('pagination', () => {
  // [query, rows on the page, X-Current-Page, X-Last-Page, X-Per-Page, X-Total]
  const PAGES: [string, number, string, string, string, string][] = [
    ['', 5, '1', '1', '15', '5'],
    ['?per_page=2', 2, '1', '3', '2', '5'],
    ['?per_page=2&page=2', 2, '2', '3', '2', '5'],
    ['?per_page=2&page=3', 1, '3', '3', '2', '5'],
    ['?per_page=2&page=4', 0, '4', '3', '2', '5'],
    ['?per_page=1&page=5', 1, '5', '5', '1', '5'],
    ['?per_page=5', 5, '1', '1', '5', '5'],
    ['?per_page=100', 5, '1', '1', '100', '5'],
    ['?filter[status]=nothing', 0, '1', '1', '15', '0'],
  ];

  it.each(PAGES)('/posts%s: %i rows, page %s of %s, %s per page, %s in all', async (query, rows, current, last, perPage, total) => {
    const response = await get(`/posts${query}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(rows);
    expect(response.headers).toMatchObject({ 'x-current-page': current, 'x-last-page': last, 'x-per-page': perPage, 'x-total': total });
  });

  it('never repeats or skips a row across pages, whatever the order', async () => {
    for (const sort of ['title', '-title', 'created_at', '-created_at']) {
      const pages = await Promise.all([1, 2, 3].map((page) => get(`/posts?per_page=2&page=${page}&sort=${sort}`)));
      const titles = pages.flatMap((page) => page.body.data.map((post: { title: string }) => post.title));
      expect(titles.sort()).toEqual(demoPostTitles('acme'));
    }
  });
});

describe('filters, sorts, search, scopes and fields', () => {
  const titles = (body: { data: { title: string }[] }) => body.data.map((post) => post.title);

  it.each([
    ['?sort=title', ['Hiring plan', 'Office move', 'Quarterly roadmap', 'Security review', 'Welcome to Acme']],
    ['?sort=-title', ['Welcome to Acme', 'Security review', 'Quarterly roadmap', 'Office move', 'Hiring plan']],
    ['?filter[status]=draft&sort=title', ['Hiring plan', 'Security review']],
    ['?filter[status]=draft,published&sort=title&per_page=2', ['Hiring plan', 'Office move']],
    ['?filter[author_id]=999999', []],
    ['?search=ROADMAP', ['Quarterly roadmap']],
    ['?search=moving', ['Office move']],
    ['?search=%25', []],
    ['?scope=drafts&sort=-title', ['Security review', 'Hiring plan']],
    ['?scope=published&filter[status]=draft', []],
  ])('/posts%s', async (query, expected) => {
    const response = await get(`/posts${query}`);
    expect(response.status).toBe(200);
    expect(titles(response.body)).toEqual(expected);
  });

  it('filters by the author', async () => {
    expect(titles((await get(`/posts?filter[author_id]=${ownerId}&sort=title`)).body)).toEqual(demoPostTitles('acme'));
  });

  it('returns only the requested fields, and the key', async () => {
    const response = await get('/posts?fields[posts]=title,status&include=author&fields[users]=name&per_page=1');
    expect(response.body.data).toEqual([{ id: expect.any(Number), title: expect.any(String), status: expect.any(String), author: { id: ownerId, name: 'Olivia Owner' } }]);
  });

  it('computes the declared aggregates, narrowed like the index', async () => {
    expect((await get('/posts/computed')).body).toEqual({ total: 5, published: 3, drafts: 2 });
    expect((await get('/posts/computed?filter[status]=draft')).body).toEqual({ total: 2, published: 0, drafts: 2 });
  });
});

describe('bad input answers 400 or 404 with a message, never 500', () => {
  it.each([
    ['/posts?per_page=0', 400, 'per_page must be an integer between 1 and 100.'],
    ['/posts?per_page=101', 400, 'per_page must be an integer between 1 and 100.'],
    ['/posts?page=0', 400, 'page must be an integer between 1 and 1000000000.'],
    ['/posts?page=two', 400, 'page must be an integer between 1 and 1000000000.'],
    ['/posts?page=1&page=2', 400, 'The query parameter page may appear only once.'],
    ['/posts?limit=5', 400, 'Unknown query parameter: limit.'],
    ['/posts?sort=internal_notes', 400, 'Unknown sort: internal_notes.'],
    ['/posts?filter[internal_notes]=x', 400, 'Unknown filter: internal_notes.'],
    ['/posts?filter[author_id]=abc', 400, 'Invalid value for filter[author_id]: abc.'],
    ['/posts?fields[posts]=password_hash', 400, 'Unknown field: posts.password_hash.'],
    ['/posts?scope=everything', 400, 'Unknown scope: everything.'],
    ['/posts/1?page=1', 400, 'Unknown query parameter: page.'],
    ['/posts/abc', 400, 'Invalid id: abc.'],
    ['/posts/0', 400, 'Invalid id: 0.'],
    ['/posts/99999999999', 400, 'Invalid id: 99999999999.'],
    ['/posts/999999', 404, 'Resource not found'],
    ['/secrets', 404, 'Unknown model: secrets.'],
    ['/secrets/1', 404, 'Unknown model: secrets.'],
  ])('GET %s → %i', async (path, status, message) => {
    const response = await get(path);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ message });
  });

  it('answers malformed JSON with 400', async () => {
    const response = await server.api.post('/api/acme/posts', { token: editor, rawBody: '{"title": ' });
    expect(response).toMatchObject({ status: 400, body: { message: 'Malformed JSON in the request body.' } });
  });
});
