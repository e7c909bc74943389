import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idOf, postId, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// The query forms Rhino clients send next to the contract's own (issue 14): flat `fields=`,
// bracketed scopes with typed arguments, show narrowed by `fields`, `include` and `filter`, a
// selection of aggregates and per-record computed attributes.
// Read-only, so every case sees the seed (acme: 5 posts by the owner, 2 of them drafts).

let server: TestServer;
let editor: string;
let viewer: string;
let ownerId: number;
let draftId: number;

beforeAll(async () => {
  server = await startDataServer();
  editor = await server.login('editor@acme.test');
  viewer = await server.login('viewer@acme.test');
  ownerId = await idOf(server, 'users', 'email', 'owner@acme.test');
  draftId = await postId(server, 'Hiring plan');
});

afterAll(() => server.close());

const get = (path: string) => server.api.get(`/api/acme${path}`, { token: editor });
const titles = (body: { data: { title: string }[] }) => body.data.map((post) => post.title);

describe('sparse fields in the flat form', () => {
  it('narrows the endpoint model like fields[posts]', async () => {
    const flat = await get('/posts?fields=id,title&sort=title&per_page=1');
    expect(flat.status).toBe(200);
    expect(flat.body.data).toEqual([{ id: draftId, title: 'Hiring plan' }]);
    expect((await get('/posts?fields[posts]=id,title&sort=title&per_page=1')).body).toEqual(flat.body);
  });

  it('combines with fields of an included model', async () => {
    const response = await get('/posts?fields=title&include=author&fields[users]=name&sort=title&per_page=1');
    expect(response.body.data).toEqual([{ id: draftId, title: 'Hiring plan', author: { id: ownerId, name: 'Olivia Owner' } }]);
  });

  it.each([
    ['/posts?fields=password_hash', 'Unknown field: posts.password_hash.'],
    ['/posts?fields=title&fields[posts]=status', 'Use either fields or fields[posts], not both.'],
  ])('GET %s → 400', async (path, message) => {
    expect(await get(path)).toMatchObject({ status: 400, body: { message } });
  });
});

describe('scopes in the bracket form', () => {
  it.each([
    ['?scope[drafts]=', ['Hiring plan', 'Security review']],
    ['?scope=drafts', ['Hiring plan', 'Security review']],
    ['?scope[published]=&scope[drafts]=', []],
    ['?scope[byAuthor]=999999', []],
  ])('/posts%s', async (query, expected) => {
    const response = await get(`/posts${query}&sort=title`);
    expect(response.status).toBe(200);
    expect(titles(response.body)).toEqual(expected);
  });

  it('passes a typed argument to the scope', async () => {
    expect(titles((await get(`/posts?scope[byAuthor]=${ownerId}&scope=drafts&sort=title`)).body)).toEqual(['Hiring plan', 'Security review']);
    expect((await get(`/posts/computed?scope[byAuthor]=${ownerId}`)).body).toEqual({ total: 5, published: 3, drafts: 2 });
  });

  it.each([
    ['/posts?scope[everything]=', 'Unknown scope: everything.'],
    ['/posts?scope[byAuthor]=abc', 'Invalid value for scope[byAuthor]: abc.'],
    ['/posts?scope[byAuthor]=2147483648', 'Invalid value for scope[byAuthor]: 2147483648.'],
    ['/posts?scope=byAuthor', 'Scope byAuthor needs an argument: scope[byAuthor]=value.'],
    ['/posts?scope[drafts]=yes', 'Scope drafts takes no argument.'],
    ['/posts?scope[drafts]=&scope[drafts]=', 'The query parameter scope[drafts] may appear only once.'],
  ])('GET %s → 400', async (path, message) => {
    expect(await get(path)).toMatchObject({ status: 400, body: { message } });
  });
});

describe('show with fields, include and filter', () => {
  it('returns only the requested fields, in both forms, with included relations', async () => {
    expect((await get(`/posts/${draftId}?fields=title`)).body).toEqual({ id: draftId, title: 'Hiring plan' });
    expect((await get(`/posts/${draftId}?fields[posts]=title&include=author&fields[users]=name`)).body).toEqual({
      id: draftId,
      title: 'Hiring plan',
      author: { id: ownerId, name: 'Olivia Owner' },
    });
  });

  it('answers the record only when it matches the filter, else the same 404 as a missing one', async () => {
    expect(await get(`/posts/${draftId}?filter[status]=draft,archived&fields=status`)).toMatchObject({ status: 200, body: { id: draftId, status: 'draft' } });
    expect(await get(`/posts/${draftId}?filter[status]=published`)).toMatchObject({ status: 404, body: { message: 'Resource not found' } });
    expect(await get(`/posts/${draftId}?filter[author_id]=${ownerId}`)).toMatchObject({ status: 200, body: { id: draftId } });
  });

  it.each([
    ['?filter[internal_notes]=x', 'Unknown filter: internal_notes.'],
    ['?filter[author_id]=abc', 'Invalid value for filter[author_id]: abc.'],
    ['?sort=title', 'Unknown query parameter: sort.'],
    ['?scope=drafts', 'Unknown query parameter: scope.'],
  ])('GET /posts/{id}%s → 400', async (query, message) => {
    expect(await get(`/posts/${draftId}${query}`)).toMatchObject({ status: 400, body: { message } });
  });
});

describe('computed selection and computed attributes', () => {
  it('computes only the selected aggregates', async () => {
    expect(await get('/posts/computed?attributes=total,drafts')).toMatchObject({ status: 200, body: { total: 5, drafts: 2 } });
    expect(Object.keys((await get('/posts/computed?attributes=drafts&filter[status]=draft')).body)).toEqual(['drafts']);
  });

  it.each([
    ['/posts/computed?attributes=total,nope,secret', 'Unknown computed attributes: nope, secret.'],
    ['/posts/computed?attributes=constructor', 'Unknown computed attribute: constructor.'],
    ['/posts?computed_attributes=excerpt,nope', 'Unknown computed attribute: nope.'],
    ['/posts?attributes=total', 'Unknown query parameter: attributes.'],
    ['/posts/computed?computed_attributes=excerpt', 'Unknown query parameter: computed_attributes.'],
  ])('GET %s → 400', async (path, message) => {
    expect(await get(path)).toMatchObject({ status: 400, body: { message } });
  });

  it('adds the requested computed attributes to each record of index and show, next to sparse fields', async () => {
    const expected = { id: draftId, title: 'Hiring plan', excerpt: 'Two engineers this year.', has_internal_notes: true };
    expect((await get('/posts?fields=title&computed_attributes=excerpt,has_internal_notes&sort=title&per_page=1')).body.data).toEqual([expected]);
    expect((await get(`/posts/${draftId}?fields=title&computed_attributes=excerpt,has_internal_notes`)).body).toEqual(expected);
    expect((await get(`/posts/${draftId}`)).body).not.toHaveProperty('excerpt');
  });

  it('leaves out a computed attribute whose source the caller may not read', async () => {
    const show = await server.api.get(`/api/acme/posts/${draftId}?computed_attributes=excerpt,has_internal_notes`, { token: viewer });
    expect(show.status).toBe(200);
    expect(show.body).toMatchObject({ id: draftId, excerpt: 'Two engineers this year.' });
    expect(show.body).not.toHaveProperty('internal_notes');
    expect(show.body).not.toHaveProperty('has_internal_notes');
  });
});
