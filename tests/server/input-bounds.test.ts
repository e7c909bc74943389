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

  it('of 20 items are read as before', async () => {
    expect(await get(`sort=${repeat(20, () => 'title')}&fields[posts]=title&scope=${repeat(20, () => 'published')}`)).toMatchObject({ status: 200 });
  });
});
