import { ResourcePolicy } from '@gatehouse/engine';
import { createGatehouse, planToSql, ScopedPlanError, UnmappedRelationError, type AuthorizePlan, type Gatehouse } from '@gatehouse/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDataServer } from '../server/support/data-server.js';
import type { TestServer } from '../server/support/test-server.js';
import { apiBase, grant } from './support.js';

// Issue 35, "which records": authorize answers a plan per model and action, and @gatehouse/node's
// WHERE for it selects on the real posts table exactly what Gatehouse's own list and PATCH allow.

let server: TestServer;
let gatehouse: Gatehouse;
const tokens: Record<string, string> = {};

interface Post {
  id: number;
  title: string;
}

beforeAll(async () => {
  server = await startDataServer();
  for (const who of ['viewer', 'contributor', 'owner', 'editor']) tokens[who] = await server.login(`${who}@acme.test`);
  // A draft nobody wrote: every test on author_id meets a NULL.
  await server.sql("INSERT INTO posts (organization_id, title, status, author_id) SELECT id, 'Orphan draft', 'draft', NULL FROM organizations WHERE slug = 'acme'");
  await server.api.post('/api/acme/posts', { token: tokens.contributor!, body: { title: 'Cora draft', status: 'draft' } });
  gatehouse = createGatehouse({ baseURL: apiBase(server) });
});

afterAll(async () => {
  gatehouse.close();
  await server.close();
});

const plansOf = async (who: string, plans: Array<{ model: string; action: string }>) => {
  const response = await server.api.post('/api/acme/authorize', { token: tokens[who]!, body: { plans } });
  expect(response.status).toBe(200);
  return response.body.plans as AuthorizePlan[];
};

/** The live acme posts the plan's WHERE selects, as another service would run it on its own table. */
async function selectedIds(plan: AuthorizePlan): Promise<number[]> {
  const where = planToSql(plan, { table: 'posts' }, { firstParameter: 2 });
  const rows = await server.sql(
    `SELECT posts.id FROM posts WHERE organization_id = (SELECT id FROM organizations WHERE slug = $1) AND deleted_at IS NULL AND ${where.sql} ORDER BY posts.id`,
    ['acme', ...where.values],
  );
  return rows.map((row) => Number(row.id));
}

const listedIds = async (who: string) =>
  ((await server.api.get('/api/acme/posts?per_page=100', { token: tokens[who]! })).body.data as Post[]).map((post) => post.id).sort((a, b) => a - b);

/** The posts a real PATCH (the title unchanged) answers 200 for, of all live acme posts. */
async function patchableIds(who: string): Promise<number[]> {
  const all = (await server.api.get('/api/acme/posts?per_page=100', { token: tokens.owner! })).body.data as Post[];
  const statuses = await Promise.all(
    all.map(async (post) => [post.id, (await server.api.request('PATCH', `/api/acme/posts/${post.id}`, { token: tokens[who]!, body: { title: post.title } })).status] as const),
  );
  expect(statuses.every(([, status]) => [200, 403, 404].includes(status))).toBe(true);
  return statuses.filter(([, status]) => status === 200).map(([id]) => id).sort((a, b) => a - b);
}

describe('the plans of authorize', () => {
  it('answers always, never or the condition with the caller facts filled in', async () => {
    const me = Number((await server.sql("SELECT id FROM users WHERE email = 'contributor@acme.test'"))[0]!.id);
    expect(await plansOf('viewer', [{ model: 'posts', action: 'index' }, { model: 'posts', action: 'update' }])).toEqual([
      { model: 'posts', action: 'index', kind: 'always' },
      { model: 'posts', action: 'update', kind: 'never' },
    ]);
    const own = { op: 'eq', attribute: 'author_id', value: me };
    const visible = { op: 'or', conditions: [{ op: 'eq', attribute: 'status', value: 'published' }, own] };
    expect(await plansOf('contributor', [{ model: 'posts', action: 'index' }, { model: 'posts', action: 'update' }])).toEqual([
      { model: 'posts', action: 'index', kind: 'conditional', condition: visible },
      { model: 'posts', action: 'update', kind: 'conditional', condition: { op: 'and', conditions: [visible, own] } },
    ]);
    expect(await plansOf('owner', [{ model: 'posts', action: 'update' }])).toEqual([{ model: 'posts', action: 'update', kind: 'always' }]);
    expect(await plansOf('owner', [{ model: 'invoices', action: 'index' }, { model: 'posts', action: 'approve' }])).toMatchObject([
      { kind: 'never', reason: { gate: 'model' } },
      { kind: 'never', reason: { gate: 'action' } },
    ]);
  });

  it("marks scoped the plans of a model whose recordScope narrows them, which planToSql refuses unless the service applies the scope", async () => {
    // The demo's users: an organization's members only, by its recordScope (server code, no condition).
    const [users, posts] = await gatehouse.plans(tokens.owner!, 'acme', [
      { model: 'users', action: 'index' },
      { model: 'posts', action: 'index' },
    ]);
    expect(users).toEqual({ model: 'users', action: 'index', kind: 'always', scoped: true });
    expect(posts).toEqual({ model: 'posts', action: 'index', kind: 'always' });
    expect(() => planToSql(users!, { table: 'users' })).toThrow(ScopedPlanError);
    expect(planToSql(users!, { table: 'users' }, { scopeApplied: true })).toEqual({ sql: 'true', values: [] });
  });

  it('refuses a body with neither list, or too many plans, with a 422 naming the field', async () => {
    const empty = await server.api.post('/api/acme/authorize', { token: tokens.owner!, body: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.checks).toEqual(['The checks field must be an array.']);
    const many = await server.api.post('/api/acme/authorize', { token: tokens.owner!, body: { plans: Array.from({ length: 101 }, () => ({ model: 'posts', action: 'index' })) } });
    expect(many.status).toBe(422);
    expect(many.body.errors.plans).toEqual(['At most 100 plans may be asked at once.']);
  });

  it('selects, through @gatehouse/node, exactly the posts the list answers and the PATCH allows', async () => {
    for (const who of ['viewer', 'contributor', 'owner']) {
      const [index, update] = await gatehouse.plans(tokens[who]!, 'acme', [
        { model: 'posts', action: 'index' },
        { model: 'posts', action: 'update' },
      ]);
      expect(await selectedIds(index!)).toEqual(await listedIds(who));
      expect(await selectedIds(update!)).toEqual(await patchableIds(who));
    }
  });

  it("binds a service's policy to the caller's record conditions: it decides each post as authorize does", async () => {
    class PostPolicy extends ResourcePolicy<Post> {
      static override resourceSlug = 'posts';
    }
    const policy = await gatehouse.policy(tokens.contributor!, 'acme', PostPolicy);
    const posts = (await server.api.get('/api/acme/posts?per_page=100', { token: tokens.owner! })).body.data as Post[];
    const checks = posts.flatMap((post) => (['show', 'update', 'destroy'] as const).map((action) => ({ model: 'posts', action, post })));
    const results = await gatehouse.authorize(tokens.contributor!, 'acme', checks.map(({ model, action, post }) => ({ model, action, id: post.id })));
    expect(results.filter((result) => result.allowed).length).toBeGreaterThan(3);
    expect(checks.map(({ action, post }) => policy.can(action, policy.context.user, post))).toEqual(results.map((result) => result.allowed));
    expect(policy.can('index', policy.context.user)).toBe(true);
  });

  it('takes away exactly the records a conditioned deny matches, NULLs included', async () => {
    await server.sql("UPDATE user_roles SET denied_permissions = array_append(denied_permissions, 'posts.update:own') WHERE user_id = (SELECT id FROM users WHERE email = 'editor@acme.test')");
    const [update] = await plansOf('editor', [{ model: 'posts', action: 'update' }]);
    expect(update).toMatchObject({ kind: 'conditional', condition: { op: 'not' } });
    const patchable = await patchableIds('editor');
    expect(patchable.length).toBeGreaterThan(0);
    expect(await selectedIds(update!)).toEqual(patchable);
  });

  it('narrows a record action to the records show reads: a 404 is not in the plan', async () => {
    await grant(server, 'contributor@acme.test', 'posts.update');
    const [update] = await plansOf('contributor', [{ model: 'posts', action: 'update' }]);
    expect(update).toMatchObject({ kind: 'conditional', condition: { op: 'or' } });
    expect(await selectedIds(update!)).toEqual(await patchableIds('contributor'));
  });

  it('narrows a record action by show only where show has a condition: without show, the record is read and the action decides', async () => {
    await grant(server, 'viewer@acme.test', 'posts.update');
    await server.sql("UPDATE user_roles SET denied_permissions = array_append(denied_permissions, 'posts.show') WHERE user_id = (SELECT id FROM users WHERE email = 'viewer@acme.test')");
    const [update] = await plansOf('viewer', [{ model: 'posts', action: 'update' }]);
    const patchable = await patchableIds('viewer');
    expect(patchable.length).toBeGreaterThan(0);
    expect(await selectedIds(update!)).toEqual(patchable);
  });
});

describe('planToSql', () => {
  const plan = (condition: unknown) => ({ model: 'posts', action: 'index', kind: 'conditional', condition }) as AuthorizePlan;

  it('writes values as parameters, in columns the service names, never as text', () => {
    const where = planToSql(plan({ op: 'nin', attribute: 'title', values: ["x' or 1=1 --", 7] }), { table: 'billing.invoices', columns: { title: 'label' } }, { firstParameter: 3 });
    expect(where).toEqual({ sql: '("billing"."invoices"."label" is null or "billing"."invoices"."label" not in ($3 collate "C", $4::bigint))', values: ["x' or 1=1 --", 7] });
  });

  it('refuses a relation it was not told how to join', () => {
    expect(() => planToSql(plan({ op: 'some', relation: 'comments', condition: { op: 'true' } }), { table: 'posts' })).toThrow(UnmappedRelationError);
  });
});
