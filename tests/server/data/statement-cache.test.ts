import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoData } from '../../../policies/demo-data.js';
import { DEMO_ROUTE_GROUPS } from '../../../policies/route-groups.js';
import { statementCache } from '../../../server/db/statements/statement-cache.js';
import { defineModel } from '../../../server/models/define-model.js';
import { demoPostTitles } from '../../support/demo.js';
import { idOf, postId, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// Compiled statements are cached by shape (server/db/statements/statement-cache.ts): a repeated shape is
// not compiled again, and no two requests ever get each other's SQL or rows. Compilations are
// counted through the cache, never timed.

/**
 * The posts a caller wrote, the author written into the SQL as a literal (as a model's own scope
 * may do): a cached statement keyed without the caller would hand one author's rows to another.
 */
const myPosts = defineModel({
  slug: 'my-posts',
  table: 'posts',
  tenantOwned: true,
  attributes: { organization_id: 'integer', title: 'string', status: 'string', author_id: 'integer' },
  fillable: [],
  filters: ['status'],
  recordScope: (query, { userId }) => query.where('author_id', '=', sql.lit(userId ?? 0)),
  scopes: { titled: { argument: 'string', apply: (query, _context, title) => query.where('title', '=', sql.lit(String(title))) } },
});

let server: TestServer;
const tokens: Record<'owner' | 'editor' | 'globex', string> = { owner: '', editor: '', globex: '' };

beforeAll(async () => {
  const [tenant, ...others] = DEMO_ROUTE_GROUPS;
  server = await startDataServer({
    routeGroups: [{ ...tenant!, models: [...tenant!.models!, 'my-posts'] }, ...others],
    data: { ...demoData, models: [...demoData.models!, myPosts] },
  });
  // Two acme posts become the editor's, who may read my-posts like the owner (who holds `*`).
  const editor = await idOf(server, 'users', 'email', 'editor@acme.test');
  await server.sql("UPDATE posts SET author_id = $1 WHERE title IN ('Hiring plan', 'Office move')", [editor]);
  await server.sql("UPDATE user_roles SET granted_permissions = '{my-posts.*}' WHERE user_id = $1", [editor]);
  tokens.owner = await server.login('owner@acme.test');
  tokens.editor = await server.login('editor@acme.test');
  tokens.globex = await server.login('owner@globex.test');
});

afterAll(() => server.close());

type Caller = keyof typeof tokens;

const get = (caller: Caller, path: string, headers: Record<string, string> = {}) =>
  server.api.get(`/api/${caller === 'globex' ? 'globex' : 'acme'}${path}`, { token: tokens[caller], headers });

/** The response and how many statements it compiled. */
async function counted(caller: Caller, path: string, headers?: Record<string, string>) {
  const before = statementCache.compilations;
  const response = await get(caller, path, headers);
  expect(response.status).toBe(200);
  return { response, compiled: statementCache.compilations - before };
}

const titles = (body: { data: { title: string }[] }) => body.data.map((post) => post.title).sort();

describe('an index shape', () => {
  it('is compiled once; the next request of the shape only binds its own values', async () => {
    const first = await counted('owner', '/posts?filter[status]=published&sort=title&per_page=2', { Prefer: 'count=exact' });
    expect(first.compiled).toBeGreaterThan(0);
    expect(titles(first.response.body)).toEqual(['Office move', 'Quarterly roadmap']);
    expect(first.response.headers['x-total']).toBe('3');

    const next = await counted('owner', '/posts?filter[status]=draft&sort=title&per_page=1&page=2', { Prefer: 'count=exact' });
    expect(next.compiled).toBe(0);
    expect(titles(next.response.body)).toEqual(['Security review']);
    expect(next.response.headers).toMatchObject({ 'x-total': '2', 'x-current-page': '2', 'x-per-page': '1' });
  });

  it('gives another tenant the same SQL and only its own rows: row-level security reads the tenant from the transaction', async () => {
    const acme = await counted('owner', '/posts?filter[status]=draft,published&per_page=50');
    const globex = await counted('globex', '/posts?filter[status]=draft,published&per_page=50');
    expect(globex.compiled).toBe(0);
    expect(titles(acme.response.body)).toEqual(demoPostTitles('acme'));
    expect(titles(globex.response.body)).toEqual(demoPostTitles('globex'));
  });

  it('is another shape with another number of filter values, a search, a sort or a cursor', async () => {
    await counted('owner', '/posts?filter[status]=draft');
    const threeValues = await counted('owner', '/posts?filter[status]=draft,archived,draft');
    expect(threeValues.compiled).toBeGreaterThan(0);
    expect(titles(threeValues.response.body)).toEqual(['Hiring plan', 'Security review']);

    const search = await counted('owner', '/posts?filter[status]=draft&search=review');
    expect(search.compiled).toBeGreaterThan(0);
    expect(titles(search.response.body)).toEqual(['Security review']);
    const otherSearch = await counted('owner', '/posts?filter[status]=draft&search=hiring');
    expect(otherSearch.compiled).toBe(0);
    expect(titles(otherSearch.response.body)).toEqual(['Hiring plan']);

    const descending = await get('owner', '/posts?sort=-title&per_page=2');
    expect(descending.body.data.map((post: { title: string }) => post.title)).toEqual(['Welcome to Acme', 'Security review']);
    const cursor = descending.headers['x-next-cursor'] as string;
    const after = await counted('owner', `/posts?sort=-title&per_page=2&cursor=${encodeURIComponent(cursor)}`);
    expect(after.compiled).toBeGreaterThan(0);
    expect(after.response.body.data.map((post: { title: string }) => post.title)).toEqual(['Quarterly roadmap', 'Office move']);
    const further = await counted('owner', `/posts?sort=-title&per_page=2&cursor=${encodeURIComponent(after.response.headers['x-next-cursor'] as string)}`);
    expect(further.compiled).toBe(0);
    expect(further.response.body.data.map((post: { title: string }) => post.title)).toEqual(['Hiring plan']);
  });

  it('reads the same statement whatever the field list, and serializes only the fields asked for', async () => {
    await counted('owner', '/posts?filter[status]=published&fields[posts]=title');
    const wider = await counted('owner', '/posts?filter[status]=published&fields[posts]=title,status');
    expect(wider.compiled).toBe(0);
    expect(wider.response.body.data[0]).toEqual({ id: expect.any(Number), title: expect.any(String), status: 'published' });
    const narrower = await counted('owner', '/posts?filter[status]=published&fields[posts]=status');
    expect(narrower.compiled).toBe(0);
    expect(narrower.response.body.data[0]).toEqual({ id: expect.any(Number), status: 'published' });
  });

  it('loads includes with one statement whatever the number of parents', async () => {
    await counted('owner', '/posts?include=comments&per_page=1');
    const five = await counted('owner', '/posts?include=comments&per_page=5');
    expect(five.compiled).toBe(0);
    const byTitle = Object.fromEntries(five.response.body.data.map((post: { title: string; comments: { body: string }[] }) => [post.title, post.comments.map((comment) => comment.body).sort()]));
    expect(byTitle).toMatchObject({ 'Welcome to Acme': ['Glad to be here.', 'Welcome!'], 'Quarterly roadmap': ['Exciting.'], 'Hiring plan': [] });
  });
});

describe('a model scope that writes the caller into its SQL', () => {
  it('keys the statement by the caller: two members, the same shape, each only their own rows', async () => {
    const owner = await counted('owner', '/my-posts?per_page=50');
    const editor = await counted('editor', '/my-posts?per_page=50');
    expect(editor.compiled).toBeGreaterThan(0);
    expect(titles(editor.response.body)).toEqual(['Hiring plan', 'Office move']);
    expect(titles(owner.response.body)).toEqual(['Quarterly roadmap', 'Security review', 'Welcome to Acme']);
    // Each caller's statement stays cached: the owner again gets the owner's rows.
    const again = await counted('owner', '/my-posts?per_page=50');
    expect(again.compiled).toBe(0);
    expect(titles(again.response.body)).toEqual(titles(owner.response.body));
  });

  it('keys it by a scope argument the scope writes into its SQL', async () => {
    const hiring = await counted('editor', '/my-posts?scope[titled]=Hiring plan');
    const office = await counted('editor', '/my-posts?scope[titled]=Office move');
    expect(office.compiled).toBeGreaterThan(0);
    expect(titles(hiring.response.body)).toEqual(['Hiring plan']);
    expect(titles(office.response.body)).toEqual(['Office move']);
  });

  it('keeps a show request to the caller’s own record', async () => {
    const hiring = await postId(server, 'Hiring plan');
    const welcome = await postId(server, 'Welcome to Acme');
    expect((await get('editor', `/my-posts/${hiring}`)).status).toBe(200);
    expect((await get('editor', `/my-posts/${welcome}`)).status).toBe(404);
    expect((await get('owner', `/my-posts/${hiring}`)).status).toBe(404);
    expect((await get('owner', `/my-posts/${welcome}`)).body.title).toBe('Welcome to Acme');
  });
});

describe('a show request', () => {
  it('is compiled once and answers each id with its own record, never another tenant’s', async () => {
    const welcome = await postId(server, 'Welcome to Acme');
    const hiring = await postId(server, 'Hiring plan');
    const launch = await postId(server, 'Globex launch');
    await counted('owner', `/posts/${welcome}`);
    const next = await counted('owner', `/posts/${hiring}`);
    expect(next.compiled).toBe(0);
    expect(next.response.body).toMatchObject({ id: hiring, title: 'Hiring plan' });
    expect((await get('owner', `/posts/${launch}`)).status).toBe(404);
    const own = await counted('globex', `/posts/${launch}`);
    expect(own.compiled).toBe(0);
    expect(own.response.body).toMatchObject({ id: launch, title: 'Globex launch' });
  });
});
