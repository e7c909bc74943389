import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../server/db/database.js';
import { auditTrail, computeAggregates, indexRecords, showRecord, trashedRecords } from '../../../server/data/read-actions.js';
import { runNestedOperations } from '../../../server/data/nested-operations.js';
import { destroyRecord, forceDeleteRecord, restoreRecord, storeRecord, updateRecord } from '../../../server/data/write-actions.js';
import { createModelRegistry } from '../../../server/models/model-registry.js';
import { demoModels } from '../../../policies/demo-models.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { fixedPolicy, inTenant, type DataScenario } from '../support/data-context.js';

const registry = createModelRegistry(demoModels);
const posts = registry.get('posts');
const comments = registry.get('comments');
const users = registry.get('users');

let testDb: TestDatabase;
let database: Database;
let acme: DataScenario;
let globexPostId: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = openDatabase({ connectionString: testDb.ownerUrl, maxConnections: 2 });
  const pg = await import('pg');
  const owner = new pg.default.Client({ connectionString: testDb.ownerUrl });
  await owner.connect();
  const ids = async (text: string) => (await owner.query<{ id: number }>(text)).rows[0]!.id;
  const organizationId = await ids(`SELECT id FROM organizations WHERE slug = 'acme'`);
  const userId = await ids(`SELECT id FROM users WHERE email = 'editor@acme.test'`);
  globexPostId = await ids(`SELECT id FROM posts WHERE title = 'Globex secrets'`);
  await owner.end();
  acme = { db: database.db, registry, organizationId, userId };
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
    const list = await inTenant(acme, (context) => indexRecords(context, posts, query));
    expect(list.data).toHaveLength(rows);
    expect(list.pagination).toEqual(pagination);
  });

  it.each([
    [{ 'filter[status]': 'draft' }, ['Hiring plan', 'Security review']],
    [{ 'filter[status]': 'draft', sort: '-title' }, ['Security review', 'Hiring plan']],
    [{ search: 'ROADMAP' }, ['Quarterly roadmap']],
    [{ search: 'moving' }, ['Office move']],
    [{ search: '%' }, []],
    [{ scope: 'drafts', sort: 'title' }, ['Hiring plan', 'Security review']],
  ])('narrows and orders %j', async (query, expected) => {
    const list = await inTenant(acme, (context) => indexRecords(context, posts, query));
    expect(titles(list.data)).toEqual(expected);
  });

  it('never lists another tenant’s rows', async () => {
    const list = await inTenant(acme, (context) => indexRecords(context, posts, { per_page: '100', search: 'Globex' }));
    expect(list.data).toEqual([]);
  });

  it('lists only the organization’s members as users, without their password hashes', async () => {
    const list = await inTenant(acme, (context) => indexRecords(context, users, {}));
    expect(list.data.map((user) => user.email).sort()).toEqual(['editor@acme.test', 'owner@acme.test', 'viewer@acme.test']);
    expect(Object.keys(list.data[0]!).sort()).toEqual(['created_at', 'email', 'id', 'name', 'updated_at']);
  });

  it('loads nested includes through each model’s record gate', async () => {
    const list = await inTenant(acme, (context) => indexRecords(context, posts, { 'filter[status]': 'published', include: 'author,comments.author', sort: 'title' }));
    const welcome = list.data.find((post) => post.title === 'Welcome to Acme')!;
    expect(welcome.author).toMatchObject({ email: 'owner@acme.test' });
    expect((welcome.comments as { body: string; author: unknown }[]).map((comment) => comment.body)).toEqual(['Glad to be here.', 'Welcome!']);
    expect((welcome.comments as { author: unknown }[])[0]!.author).toMatchObject({ email: 'owner@acme.test' });
    expect(list.data.find((post) => post.title === 'Office move')!.comments).toEqual([]);
  });

  it('keeps only the requested fields, and the key', async () => {
    const list = await inTenant(acme, (context) => indexRecords(context, posts, { 'fields[posts]': 'title', include: 'author', 'fields[users]': 'name', per_page: '1' }));
    expect(Object.keys(list.data[0]!).sort()).toEqual(['author', 'id', 'title']);
    expect(Object.keys(list.data[0]!.author as object).sort()).toEqual(['id', 'name']);
  });

  it('applies the policy’s read rules to every row and include', async () => {
    const policy = fixedPolicy({ hiddenAttributesForShow: () => ['internal_notes', 'email'] });
    const list = await inTenant({ ...acme, policy }, (context) => indexRecords(context, posts, { include: 'author' }));
    for (const post of list.data) {
      expect(post).not.toHaveProperty('internal_notes');
      expect(post.author).not.toHaveProperty('email');
    }
  });
});

describe('record gate', () => {
  const actions = {
    show: (id: unknown) => inTenant(acme, (context) => showRecord(context, posts, String(id), {})),
    update: (id: unknown) => inTenant(acme, (context) => updateRecord(context, posts, id, { title: 'taken over' })),
    destroy: (id: unknown) => inTenant(acme, (context) => destroyRecord(context, posts, id)),
    restore: (id: unknown) => inTenant(acme, (context) => restoreRecord(context, posts, id)),
    forceDelete: (id: unknown) => inTenant(acme, (context) => forceDeleteRecord(context, posts, id)),
    audit: (id: unknown) => inTenant(acme, (context) => auditTrail(context, posts, String(id), {})),
  };

  it.each(Object.entries(actions))('%s answers 404 for another tenant’s record and leaves it alone', async (_name, action) => {
    await expect(action(globexPostId)).rejects.toMatchObject({ status: 404, message: 'Resource not found' });
    const pg = await import('pg');
    const owner = new pg.default.Client({ connectionString: testDb.ownerUrl });
    await owner.connect();
    const { rows } = await owner.query('SELECT title, deleted_at FROM posts WHERE id = $1', [globexPostId]);
    await owner.end();
    expect(rows).toEqual([{ title: 'Globex secrets', deleted_at: null }]);
  });

  it.each(Object.entries(actions))('%s answers 400 for a malformed id', async (_name, action) => {
    await expect(action('12abc')).rejects.toMatchObject({ status: 400, message: 'Invalid id: 12abc' });
  });
});

describe('writes', () => {
  it('stores a post in the caller’s organization with the caller as author', async () => {
    const post = await inTenant(acme, (context) => storeRecord(context, posts, { title: 'Fresh', status: 'draft' }));
    expect(post).toMatchObject({ title: 'Fresh', status: 'draft', organization_id: acme.organizationId, author_id: acme.userId });
  });

  it.each([
    [{ title: 'x', organization_id: 2 }, 'You are not allowed to set the following field(s): organization_id'],
    [{ title: 'x', author_id: 1, id: 9 }, 'You are not allowed to set the following field(s): author_id, id'],
  ])('refuses server-owned fields %j with 403', async (body, message) => {
    await expect(inTenant(acme, (context) => storeRecord(context, posts, body))).rejects.toMatchObject({ status: 403, message });
  });

  it.each([
    [{}, { title: ['The title field is required.'] }],
    [{ title: '   ' }, { title: ['The title field is required.'] }],
    [{ title: 'x', status: 'secret' }, { status: [expect.any(String)] }],
  ])('validates %j with 422', async (body, errors) => {
    await expect(inTenant(acme, (context) => storeRecord(context, posts, body))).rejects.toMatchObject({ status: 422, errors });
  });

  it('hangs a comment only on a post the caller can see, inheriting its organization', async () => {
    await expect(inTenant(acme, (context) => storeRecord(context, comments, { post_id: globexPostId, body: 'hi' }))).rejects.toMatchObject({
      status: 422,
      errors: { post_id: ['The selected post id is invalid.'] },
    });
    const [post] = (await inTenant(acme, (context) => indexRecords(context, posts, { per_page: '1' }))).data;
    const comment = await inTenant(acme, (context) => storeRecord(context, comments, { post_id: post!.id, body: 'hi' }));
    expect(comment).toMatchObject({ organization_id: acme.organizationId, author_id: acme.userId });
  });
});

describe('soft-delete lifecycle and audit trail', () => {
  it('moves a post to the trash and back, then deletes it for good, recording each step', async () => {
    const { id } = await inTenant(acme, (context) => storeRecord(context, posts, { title: 'Lifecycle', internal_notes: 'secret' }));
    await inTenant(acme, (context) => updateRecord(context, posts, id, { title: 'Lifecycle 2' }));
    await inTenant(acme, (context) => destroyRecord(context, posts, id));
    await expect(inTenant(acme, (context) => showRecord(context, posts, String(id), {}))).rejects.toMatchObject({ status: 404 });
    expect(titles((await inTenant(acme, (context) => trashedRecords(context, posts, {}))).data)).toContain('Lifecycle 2');
    await expect(inTenant(acme, (context) => restoreRecord(context, posts, id))).resolves.toMatchObject({ title: 'Lifecycle 2', deleted_at: null });
    const trail = await inTenant(acme, (context) => auditTrail(context, posts, String(id), {}));
    expect(trail.map((entry) => entry.action)).toEqual(['created', 'updated', 'deleted', 'restored']);
    expect(trail[1]).toMatchObject({ old_values: { title: 'Lifecycle' }, new_values: { title: 'Lifecycle 2' }, user_id: acme.userId });
    const gated = fixedPolicy({ hiddenAttributesForShow: () => ['internal_notes'] });
    const seen = await inTenant({ ...acme, policy: gated }, (context) => auditTrail(context, posts, String(id), {}));
    expect(seen[0]!.new_values).not.toHaveProperty('internal_notes');
    await inTenant(acme, (context) => forceDeleteRecord(context, posts, id));
    expect(titles((await inTenant(acme, (context) => trashedRecords(context, posts, {}))).data)).not.toContain('Lifecycle 2');
    await expect(inTenant(acme, (context) => restoreRecord(context, posts, id))).rejects.toMatchObject({ status: 404 });
  });

  it('restores only trashed records', async () => {
    const [post] = (await inTenant(acme, (context) => indexRecords(context, posts, { per_page: '1' }))).data;
    await expect(inTenant(acme, (context) => restoreRecord(context, posts, post!.id))).rejects.toMatchObject({ status: 404 });
  });
});

describe('nested operations', () => {
  const count = async () => (await inTenant(acme, (context) => indexRecords(context, posts, {}))).pagination.total;

  it('applies every operation in order and reports each result', async () => {
    const before = await count();
    const [post] = (await inTenant(acme, (context) => indexRecords(context, posts, { per_page: '1' }))).data;
    const results = await inTenant(acme, (context) =>
      runNestedOperations(context, {
        operations: [
          { model: 'posts', action: 'create', data: { title: 'Nested one' } },
          { model: 'comments', action: 'create', data: { post_id: post!.id, body: 'Nested comment' } },
          { model: 'posts', action: 'update', id: post!.id, data: { status: 'archived' } },
        ],
      }),
    );
    expect(results.map(({ model, action }) => `${model}.${action}`)).toEqual(['posts.create', 'comments.create', 'posts.update']);
    expect(results[2]!.data).toMatchObject({ status: 'archived' });
    expect(await count()).toBe(before + 1);
  });

  const rolledBack = { model: 'posts', action: 'create', data: { title: 'Rolled back' } };
  // Lazy: the other tenant's id is known only once the database is up.
  it.each([
    ['an invalid body', () => [rolledBack, { model: 'posts', action: 'create', data: {} }], 422],
    ['another tenant’s id', () => [rolledBack, { model: 'posts', action: 'delete', id: globexPostId }], 404],
    ['an unknown model', () => [rolledBack, { model: 'secrets', action: 'create', data: {} }], 404],
    ['more than 50 operations', () => Array.from({ length: 51 }, () => rolledBack), 422],
  ])('rolls everything back after %s', async (_case, operations, status) => {
    const before = await count();
    await expect(inTenant(acme, (context) => runNestedOperations(context, { operations: operations() }))).rejects.toMatchObject({ status });
    expect(await count()).toBe(before);
  });
});

describe('computed', () => {
  it('aggregates the rows the caller could list, narrowed like an index', async () => {
    const totalOf = async (query: Record<string, string>) => (await inTenant(acme, (context) => indexRecords(context, posts, query))).pagination.total;
    expect(await inTenant(acme, (context) => computeAggregates(context, posts, {}))).toEqual({
      total: await totalOf({}),
      published: await totalOf({ 'filter[status]': 'published' }),
      drafts: await totalOf({ 'filter[status]': 'draft' }),
    });
    expect(await inTenant(acme, (context) => computeAggregates(context, posts, { 'filter[status]': 'draft' }))).toMatchObject({ published: 0 });
  });
});
