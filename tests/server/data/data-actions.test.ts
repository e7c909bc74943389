import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoModels } from '../../../policies/demo-models.js';
import { demoPolicies } from '../../../policies/demo-policies.js';
import { computeAggregates, indexRecords } from '../../../server/data/read-actions.js';
import { storeRecord } from '../../../server/data/write-actions.js';
import { openDatabase, type Database } from '../../../server/db/connection/database.js';
import { httpErrorFor } from '../../../server/http/http-error-for.js';
import { createModelRegistry } from '../../../server/models/model-registry.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { queryOnce } from '../../support/query.js';
import { demoMember, inTenant, type DataScenario } from '../support/data-action-context.js';

// The data layer below HTTP, with the demo's real policies: queries, includes and bookkeeping.
// Authorization and tenancy over HTTP are in the other files of this folder.

const registry = createModelRegistry(demoModels, demoPolicies);

/** How the server answers what an action threw: its status and body. */
async function answerTo(action: Promise<unknown>): Promise<Record<string, unknown> | null> {
  try {
    await action;
    return null;
  } catch (error) {
    const answer = httpErrorFor(error);
    return answer && { status: answer.status, ...answer.body() };
  }
}
const posts = registry.get('posts');
const comments = registry.get('comments');
const users = registry.get('users');

let testDb: TestDatabase;
let database: Database;
let editor: DataScenario;
let viewer: DataScenario;
let owner: DataScenario;
let globexPostId: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = openDatabase({ connectionString: testDb.ownerUrl, maxConnections: 2 });
  const member = (email: string) => demoMember(testDb.ownerUrl, database.db, registry, email);
  [editor, viewer, owner] = await Promise.all([member('editor@acme.test'), member('viewer@acme.test'), member('owner@acme.test')]);
  const [globex] = await queryOnce<{ id: number }>(testDb.ownerUrl, `SELECT id FROM posts WHERE title = 'Globex secrets'`);
  globexPostId = globex!.id;
});

afterAll(async () => {
  await database.close();
  await testDb.drop();
});

const titles = (rows: Record<string, unknown>[]) => rows.map((row) => row.title);

describe('index', () => {
  it.each([
    [{ per_page: '2', page: '1' }, 2, { currentPage: 1, lastPage: 3, perPage: 2, total: 5 }],
    [{ per_page: '2', page: '3' }, 1, { currentPage: 3, lastPage: 3, perPage: 2, total: 5 }],
    [{ per_page: '2', page: '4' }, 0, { currentPage: 4, lastPage: 3, perPage: 2, total: 5 }],
    [{ per_page: '100' }, 5, { currentPage: 1, lastPage: 1, perPage: 100, total: 5 }],
    [{ 'filter[status]': 'nothing' }, 0, { currentPage: 1, lastPage: 1, perPage: 15, total: 0 }],
  ])('pages %j into %i rows', async (query, rows, pagination) => {
    const list = await inTenant(editor, (context) => indexRecords(context, posts, query));
    expect(list.data).toHaveLength(rows);
    expect(list.pagination).toMatchObject({ ...pagination, estimated: false, countApplied: null });
  });

  it.each([
    [{ 'filter[status]': 'draft' }, ['Hiring plan', 'Security review']],
    [{ 'filter[status]': 'draft', sort: '-title' }, ['Security review', 'Hiring plan']],
    [{ 'filter[status]': 'draft,published', sort: 'title', per_page: '2' }, ['Hiring plan', 'Office move']],
    [{ search: 'ROADMAP' }, ['Quarterly roadmap']],
    [{ search: 'moving' }, ['Office move']],
    [{ search: '%' }, []],
    [{ search: '_' }, []],
    [{ scope: 'drafts', sort: 'title' }, ['Hiring plan', 'Security review']],
  ])('narrows and orders %j', async (query, expected) => {
    const list = await inTenant(editor, (context) => indexRecords(context, posts, query));
    expect(titles(list.data)).toEqual(expected);
  });

  it('never lists another tenant’s rows', async () => {
    const list = await inTenant(owner, (context) => indexRecords(context, posts, { per_page: '100', search: 'Globex' }));
    expect(list.data).toEqual([]);
  });

  it('lists only the organization’s members as users, without their password hashes', async () => {
    const list = await inTenant(editor, (context) => indexRecords(context, users, {}));
    expect(list.data.map((user) => user.email).sort()).toEqual(['contributor@acme.test', 'editor@acme.test', 'owner@acme.test', 'viewer@acme.test']);
    expect(Object.keys(list.data[0]!).sort()).toEqual(['created_at', 'email', 'id', 'name', 'updated_at']);
  });

  it('loads nested includes through each model’s record gate', async () => {
    const list = await inTenant(editor, (context) => indexRecords(context, posts, { 'filter[status]': 'published', include: 'author,comments.author', sort: 'title' }));
    const welcome = list.data.find((post) => post.title === 'Welcome to Acme')!;
    expect(welcome.author).toMatchObject({ email: 'owner@acme.test' });
    expect((welcome.comments as { body: string }[]).map((comment) => comment.body)).toEqual(['Glad to be here.', 'Welcome!']);
    expect((welcome.comments as { author: unknown }[])[0]!.author).toMatchObject({ email: 'owner@acme.test' });
    expect(list.data.find((post) => post.title === 'Office move')!.comments).toEqual([]);
  });

  it('keeps only the requested fields, and the key', async () => {
    const list = await inTenant(editor, (context) => indexRecords(context, posts, { 'fields[posts]': 'title', include: 'author', 'fields[users]': 'name', per_page: '1' }));
    expect(Object.keys(list.data[0]!).sort()).toEqual(['author', 'id', 'title']);
    expect(Object.keys(list.data[0]!.author as object).sort()).toEqual(['id', 'name']);
  });

  it('applies the policy’s read rules to every row, also to the rows of an include', async () => {
    const asViewer = await inTenant(viewer, (context) => indexRecords(context, posts, { per_page: '100', include: 'comments' }));
    const asEditor = await inTenant(editor, (context) => indexRecords(context, posts, { per_page: '100' }));
    expect(asViewer.data.filter((post) => 'internal_notes' in post)).toEqual([]);
    expect(asEditor.data.filter((post) => post.internal_notes !== null)).toHaveLength(3);
  });
});

describe('writes', () => {
  // What each test stores is deleted after it: the reads and aggregates see the seeded rows alone, in any order.
  let seeded: { posts: number; comments: number };
  beforeAll(async () => {
    seeded = (await queryOnce<typeof seeded>(testDb.ownerUrl, 'SELECT (SELECT max(id) FROM posts) AS posts, (SELECT max(id) FROM comments) AS comments'))[0]!;
  });
  afterEach(async () => {
    await queryOnce(testDb.ownerUrl, 'DELETE FROM comments WHERE id > $1', [seeded.comments]);
    await queryOnce(testDb.ownerUrl, 'DELETE FROM posts WHERE id > $1', [seeded.posts]);
  });

  it('stores a post in the caller’s organization with the caller as author', async () => {
    const post = await inTenant(editor, (context) => storeRecord(context, posts, { title: 'Fresh', status: 'draft' }));
    expect(post).toMatchObject({ title: 'Fresh', status: 'draft', organization_id: editor.organization.id, author_id: editor.user.id });
  });

  it('takes the tenant, the author and the key from the server, never from a * role\'s body', async () => {
    const post = await inTenant(owner, (context) =>
      storeRecord(context, posts, { title: 'x', organization_id: editor.organization.id + 1, author_id: editor.user.id, id: globexPostId }),
    );
    expect(post).toMatchObject({ title: 'x', organization_id: owner.organization.id, author_id: owner.user.id });
    expect(post.id).not.toBe(globexPostId);
  });

  it.each([
    [{ title: 'x', organization_id: 2 }, 'You are not allowed to set the following field(s): organization_id'],
    [{ title: 'x', author_id: 1, id: 9 }, 'You are not allowed to set the following field(s): author_id, id'],
  ])('refuses server-owned fields %j with 403 to a role with a write list', async (body, message) => {
    await expect(inTenant(editor, (context) => storeRecord(context, posts, body))).rejects.toMatchObject({ status: 403, message });
  });

  it.each([
    [{}, { title: ['The title field is required.'] }],
    [{ title: '   ' }, { title: ['The title field is required.'] }],
    [{ title: 7 }, { title: ['The title field must be a string.'] }],
    [{ title: 'x', status: 'secret' }, { status: ['The status field must be one of: draft, published, archived.'] }],
  ])('validates %j with 422', async (body, errors) => {
    expect(await answerTo(inTenant(editor, (context) => storeRecord(context, posts, body)))).toMatchObject({
      status: 422,
      message: 'The given data was invalid.',
      errors,
    });
  });

  it('hangs a comment only on a post the caller can see, inheriting its organization', async () => {
    expect(await answerTo(inTenant(editor, (context) => storeRecord(context, comments, { post_id: globexPostId, body: 'hi' })))).toMatchObject({
      status: 422,
      errors: { post_id: ['The selected post id is invalid.'] },
    });
    const [post] = (await inTenant(editor, (context) => indexRecords(context, posts, { per_page: '1' }))).data;
    const comment = await inTenant(editor, (context) => storeRecord(context, comments, { post_id: post!.id, body: 'hi' }));
    expect(comment).toMatchObject({ organization_id: editor.organization.id, author_id: editor.user.id });
  });
});

describe('computed', () => {
  it('aggregates the rows the caller could list, narrowed like an index', async () => {
    const totalOf = async (query: Record<string, string>) => (await inTenant(editor, (context) => indexRecords(context, posts, query))).pagination.total;
    expect(await inTenant(editor, (context) => computeAggregates(context, posts, {}))).toEqual({
      total: await totalOf({}),
      published: await totalOf({ 'filter[status]': 'published' }),
      drafts: await totalOf({ 'filter[status]': 'draft' }),
    });
    expect(await inTenant(editor, (context) => computeAggregates(context, posts, { 'filter[status]': 'draft' }))).toMatchObject({ published: 0 });
  });
});
