import { describe, expect, it } from 'vitest';
import { httpErrorFor } from '../../../server/http/http-error-for.js';
import { createModelRegistry } from '../../../server/models/model-registry.js';
import { parseEndpointParameters, type EndpointKind, type RawQuery } from '../../../server/listing/parse-endpoint-parameters.js';
import { demoModels } from '../../../policies/demo-models.js';

const registry = createModelRegistry(demoModels);
const posts = registry.get('posts');
const parse = (raw: RawQuery, kind?: EndpointKind) => parseEndpointParameters(registry, posts, raw, kind);

/** How the server answers what parsing threw. */
function answerTo(raw: RawQuery) {
  try {
    parse(raw);
    return null;
  } catch (error) {
    return httpErrorFor(error);
  }
}

describe('parseEndpointParameters', () => {
  it('reads a cursor as the opaque position it is, and never beside a page number', () => {
    expect(parse({ cursor: 'abc.def' }).cursor).toBe('abc.def');
    expect(() => parse({ cursor: 'abc.def', page: '2' })).toThrow('page and cursor cannot be combined');
    expect(() => parse({ cursor: '' })).toThrow('cursor must not be empty');
    expect(() => parse({ cursor: ['a', 'b'] })).toThrow();
  });

  it('reads every index parameter into a typed request', () => {
    expect(
      parse({
        'filter[status]': 'draft,published',
        'filter[author_id]': '7',
        sort: '-created_at,title',
        search: '50%',
        include: 'author,comments.author',
        'fields[posts]': 'title,status',
        'fields[users]': 'name',
        page: '2',
        per_page: '100',
        scope: 'published',
        computed_attributes: 'excerpt',
      }),
    ).toEqual({
      filters: [
        { column: 'status', values: ['draft', 'published'] },
        { column: 'author_id', values: [7] },
      ],
      sort: [
        { column: 'created_at', direction: 'desc' },
        { column: 'title', direction: 'asc' },
      ],
      search: '50%',
      includes: ['author', 'comments.author'],
      fields: { posts: ['title', 'status'], users: ['name'] },
      page: 2,
      perPage: 100,
      cursor: null,
      scopes: [{ name: 'published', argument: null }],
      computedAttributes: ['excerpt'],
      aggregates: null,
    });
  });

  it('defaults to the first page, the model page size and its default order', () => {
    expect(parse({})).toMatchObject({ page: 1, perPage: 15, sort: [{ column: 'id', direction: 'asc' }], includes: [], fields: {} });
  });

  it.each([
    [{ 'filter[internal_notes]': 'x' }, 'Unknown filter: internal_notes.'],
    [{ 'filter[author_id]': 'abc' }, 'Invalid value for filter[author_id]: abc.'],
    [{ sort: '-internal_notes' }, 'Unknown sort: internal_notes.'],
    [{ sort: 'title;drop table posts' }, 'Unknown sort: title;drop table posts.'],
    [{ sort: 'title,-' }, 'Invalid sort "-": it names no field.'],
    [{ include: 'author,,comments' }, 'Invalid include "author,,comments": it has an empty relation name'],
    [{ include: 'author;comments' }, 'Invalid include "author;comments": "author;comments" is not a relation name'],
    [{ 'fields[posts]': 'password_hash' }, 'Unknown field: posts.password_hash.'],
    [{ 'fields[posts]': 'constructor' }, 'Unknown field: posts.constructor.'],
    [{ 'fields[users]': 'name' }, 'Unknown model in fields: users.'],
    [{ 'fields[users]': 'name', include: 'secrets' }, 'Unknown model in fields: users.'],
    [{ scope: 'everything' }, 'Unknown scope: everything.'],
    [{ scope: 'toString' }, 'Unknown scope: toString.'],
    [{ page: '0' }, 'page must be an integer between 1 and 1000000000.'],
    [{ per_page: '101' }, 'per_page must be an integer between 1 and 100.'],
    [{ per_page: '1.5' }, 'per_page must be an integer between 1 and 100.'],
    [{ limit: '5' }, 'Unknown query parameter: limit.'],
    [{ filter: 'status' }, 'Unknown query parameter: filter.'],
    [{ sort: ['title', 'created_at'] }, 'The query parameter sort may appear only once.'],
    [{ 'sort[title]': 'asc' }, 'Unknown query parameter: sort[title].'],
    [{ 'scope[everything]': '' }, 'Unknown scope: everything.'],
    [{ 'scope[]': 'drafts' }, 'Invalid scope[]: it names no scope.'],
    [{ scope: 'byAuthor' }, 'Scope byAuthor needs an argument: scope[byAuthor]=value.'],
    [{ 'scope[byAuthor]': 'abc' }, 'Invalid value for scope[byAuthor]: abc.'],
    [{ 'scope[byAuthor]': '' }, 'Invalid value for scope[byAuthor]: it is empty.'],
    [{ 'scope[drafts]': 'yes' }, 'Scope drafts takes no argument.'],
    [{ fields: 'password_hash' }, 'Unknown field: posts.password_hash.'],
    [{ fields: 'title', 'fields[posts]': 'status' }, 'Use either fields or fields[posts], not both.'],
  ] satisfies [RawQuery, string][])('rejects %j with 400: %s', (raw, message) => {
    expect(answerTo(raw)).toMatchObject({ status: 400, message });
  });

  it('reads fields in the flat form as the endpoint model\'s', () => {
    expect(parse({ fields: 'id,title' }).fields).toEqual({ posts: ['id', 'title'] });
    expect(parse({ fields: 'title', include: 'author', 'fields[users]': 'name' }).fields).toEqual({ posts: ['title'], users: ['name'] });
  });

  it('reads scopes in the bracket form, with their typed arguments, next to the list form', () => {
    expect(parse({ scope: 'published', 'scope[drafts]': '', 'scope[byAuthor]': '7' }).scopes).toEqual([
      { name: 'published', argument: null },
      { name: 'drafts', argument: null },
      { name: 'byAuthor', argument: 7 },
    ]);
  });

  it('accepts include, fields and filter on show, paging on audit, and only narrowing parameters on computed', () => {
    expect(() => parse({ page: '1' }, 'show')).toThrow('Unknown query parameter: page.');
    expect(parse({ 'filter[status]': 'draft', fields: 'title' }, 'show')).toMatchObject({ filters: [{ column: 'status', values: ['draft'] }], fields: { posts: ['title'] } });
    expect(parse({ page: '2', per_page: '50' }, 'audit')).toMatchObject({ page: 2, perPage: 50 });
    expect(() => parse({ sort: 'title' }, 'audit')).toThrow('Unknown query parameter: sort.');
    expect(parse({ attributes: 'total,drafts' }, 'computed').aggregates).toEqual(['total', 'drafts']);
    expect(() => parse({ include: 'author' }, 'computed')).toThrow('Unknown query parameter: include.');
    expect(parse({ 'filter[status]': 'draft' }, 'computed').filters).toEqual([{ column: 'status', values: ['draft'] }]);
  });
});
