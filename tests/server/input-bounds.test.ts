import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDataServer } from './support/data-server.js';
import { auditRowsOf, createAccounts, createTenant, membershipsOf, type Account, type Tenant } from './support/tenant-fixture.js';
import type { TestServer } from './support/test-server.js';

// Issue 28, findings 6 and 10: what a caller sends is bounded before it costs memory or SQL.
let server: TestServer;
let owner: Account;
let member: Account;
let tenant: Tenant;

beforeAll(async () => {
  server = await startDataServer();
  [owner, member] = await createAccounts(server, 'owner', 'member');
  tenant = await createTenant(server, [
    { account: owner, role: 'owner' },
    { account: member, role: 'viewer' },
  ]);
});

afterAll(() => server.close());

const repeat = (count: number, item: (index: number) => string) => Array.from({ length: count }, (_, index) => item(index)).join(',');

describe('permission lists (finding 6)', () => {
  it('hold permissions of at most 200 characters, at most 200 of them', async () => {
    const before = await membershipsOf(server, tenant);
    const patch = (body: unknown) => server.api.request('PATCH', tenant.path(`/members/${member.id}`), { token: owner.token, body });
    const long = `posts.${'a'.repeat(195)}`;
    expect(await patch({ granted_permissions: [long] })).toMatchObject({
      status: 422,
      body: { errors: { 'granted_permissions.0': ['The granted permissions field holds a permission longer than 200 characters.'] } },
    });
    expect(await patch({ denied_permissions: Array.from({ length: 201 }, (_, index) => `posts.action${index}`) })).toMatchObject({
      status: 422,
      body: { errors: { denied_permissions: ['The denied permissions field must not hold more than 200 permissions.'] } },
    });
    expect(await patch({ granted_permissions: ['posts..index'] })).toMatchObject({ status: 422 });
    const viewerRole = (await server.sql("SELECT id FROM roles WHERE slug = 'viewer'"))[0].id;
    expect(await server.api.request('PUT', tenant.path(`/roles/${viewerRole}/permissions`), { token: owner.token, body: { permissions: [long] } })).toMatchObject({
      status: 422,
    });
    expect(await membershipsOf(server, tenant)).toEqual(before);
    expect(await auditRowsOf(server, tenant, 'memberships')).toEqual([]);
    expect(await auditRowsOf(server, tenant, 'role_permissions')).toEqual([]);
    // 200 characters pass.
    expect(await patch({ granted_permissions: [long.slice(0, 200)] })).toMatchObject({ status: 200 });
  });
});

describe('query lists (finding 10)', () => {
  const get = (query: string) => server.api.get(tenant.path(`/posts?${query}`), { token: owner.token });

  it('hold at most 20 items each, with a 400 naming the limit', async () => {
    const cases: [string, string][] = [
      [`sort=${repeat(2000, () => 'title')}`, 'sort'],
      [`sort=${repeat(21, (index) => (index % 2 ? 'title' : '-created_at'))}`, 'sort'],
      [`filter[status]=${repeat(21, (index) => `s${index}`)}`, 'filter[status]'],
      [`include=${repeat(21, () => 'author')}`, 'include'],
      [`fields[posts]=${repeat(21, () => 'title')}`, 'fields[posts]'],
      [`scope=${repeat(21, () => 'published')}`, 'scope'],
      [Array.from({ length: 21 }, (_, index) => `filter[x${index}]=1`).join('&'), 'filter[...]'],
    ];
    for (const [query, name] of cases) {
      expect(await get(query), name).toMatchObject({ status: 400, body: { message: `The query parameter ${name} may list at most 20 items.` } });
    }
  });

  it('hold values of at most 4000 characters, with a 400 naming the limit', async () => {
    for (const name of ['search', 'filter[status]']) {
      expect(await get(`${name}=${'x'.repeat(4001)}`), name).toMatchObject({ status: 400, body: { message: `A value of the query parameter ${name} may be at most 4000 characters long.` } });
    }
    expect(await get(`search=${'x'.repeat(4000)}`)).toMatchObject({ status: 200 });
  });

  it('are documented with their limits in the OpenAPI document, as the request reads them', async () => {
    const { body: document } = await server.api.get('/api/openapi.json');
    const parameters: { name: string; description: string; schema: { maxLength?: number } }[] = document.paths['/api/{organization}/posts'].get.parameters;
    for (const name of ['sort', 'filter[status]', 'fields[posts]', 'scope']) {
      const parameter = parameters.find((candidate) => candidate.name === name)!;
      expect(parameter.description, name).toContain('At most 20 items of at most 4000 characters each.');
      // Each item is held to 4000 characters, not the list: 20 of them may be longer together.
      expect(parameter.schema.maxLength, name).toBeUndefined();
    }
  });

  it('of 20 items are read as before', async () => {
    expect(await get(`sort=${repeat(20, () => 'title')}&fields[posts]=title&scope=${repeat(20, () => 'published')}`)).toMatchObject({ status: 200 });
  });
});

describe('includes (issue 34, findings 1 and 6)', () => {
  /** A tenant of its own with one post and `comments` comments on it, the member its viewer. */
  async function tenantWithComments(comments: number): Promise<Tenant> {
    const own = await createTenant(server, [{ account: member, role: 'viewer' }]);
    const [post] = await server.sql("INSERT INTO posts (organization_id, title, status) VALUES ($1, 'Post', 'published') RETURNING id", [own.id]);
    await server.sql("INSERT INTO comments (organization_id, post_id, body) SELECT $1, $2, 'c' || n FROM generate_series(1, $3) AS n", [own.id, post.id, comments]);
    return own;
  }
  const hops = (count: number) => Array.from({ length: count }, (_, index) => (index % 2 === 0 ? 'comments' : 'post')).join('.');
  const deepMessage = (depth: number) => `The query parameter include may nest at most 5 relations in one path; it nests ${depth}.`;

  it('refuses a path of more than 5 relations with a 400 naming the limit, and keeps serving', async () => {
    const own = await tenantWithComments(1);
    const get = (include: string) => server.api.get(own.path(`/posts?include=${include}`), { token: member.token });
    expect(await get(hops(60))).toMatchObject({ status: 400, body: { message: deepMessage(60) } });
    expect(await get(`author,${hops(6)}`)).toMatchObject({ status: 400, body: { message: deepMessage(6) } });
    const five = await get(hops(5));
    expect(five.status).toBe(200);
    expect(five.body.data[0].comments[0].post.comments[0].post.comments).toHaveLength(1);
  });

  it('refuses a hop that reaches more than 1000 records, or includes embedding more than 5000, with a 422', async () => {
    const crowded = await tenantWithComments(1001);
    expect(await server.api.get(crowded.path('/posts?include=comments'), { token: member.token })).toMatchObject({
      status: 422,
      body: { message: 'The include comments reaches more than 1000 records, the most one include hop may read: ask for fewer rows (per_page) or a narrower include.' },
    });
    // 72 comments, each embedding its post with the 72 comments again: 72 + 72 + 72 * 72 = 5328 records.
    const fanned = await tenantWithComments(72);
    const get = (include: string) => server.api.get(fanned.path(`/posts?include=${include}`), { token: member.token });
    expect(await get('comments.post.comments')).toMatchObject({
      status: 422,
      body: { message: 'The includes embed more than 5000 records, the most one answer may hold: ask for fewer rows (per_page) or fewer, shorter includes.' },
    });
    expect((await get('comments.post')).status).toBe(200);
  });

  it('are refused alike by the request, explain and authorize, and documented with the limits', async () => {
    const cases = [
      { include: Array.from({ length: 21 }, (_, index) => (index % 2 ? 'author' : `comments${'.post.comments'.repeat(index % 3)}`)), message: 'The query parameter include may list at most 20 items.' },
      { include: [hops(6)], message: deepMessage(6) },
    ];
    for (const { include, message } of cases) {
      expect(await server.api.get(tenant.path(`/posts?include=${include.join(',')}`), { token: member.token })).toMatchObject({ status: 400, body: { message } });
      const explained = await server.api.post(tenant.path('/explain'), { token: member.token, body: { model: 'posts', action: 'index', include } });
      expect(explained).toMatchObject({ status: 400, body: { message } });
      const authorized = await server.api.post(tenant.path('/authorize'), { token: member.token, body: { checks: [{ model: 'posts', action: 'index', include }] } });
      expect(authorized).toMatchObject({ status: 200, body: { results: [{ allowed: false, message }] } });
    }
    const { body: document } = await server.api.get('/api/openapi.json');
    const parameters: { name: string; description: string; schema: { maxLength?: number } }[] = document.paths['/api/{organization}/posts'].get.parameters;
    expect(parameters.find(({ name }) => name === 'include')!.description).toContain('At most 20 paths of at most 5 relations each.');
    expect(parameters.find(({ name }) => name === 'search')!.schema.maxLength).toBe(4000);
  });
});
