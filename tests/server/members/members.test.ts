import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRowsOf, createAccounts, createTenant, type Account, type Tenant } from '../support/tenant-fixture.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Member and role administration under {t}: each operation behind its own permission, no
// escalation, the last owner kept, effective on the affected user's next request, audited.
// Each test that changes something does so in an organization of its own.
let server: TestServer;
let roleIds: Record<string, number>;

beforeAll(async () => {
  server = await startTestServer();
  roleIds = Object.fromEntries((await server.sql<{ id: number; slug: string }>('SELECT id, slug FROM roles')).map((role) => [role.slug, role.id]));
});

afterAll(() => server.close());

const as = (who: Account, tenant: Pick<Tenant, 'path'>) => ({
  get: (path: string) => server.api.get(tenant.path(path), { token: who.token }),
  patch: (path: string, body: unknown) => server.api.request('PATCH', tenant.path(path), { token: who.token, body }),
  put: (path: string, body: unknown) => server.api.request('PUT', tenant.path(path), { token: who.token, body }),
  delete: (path: string) => server.api.delete(tenant.path(path), { token: who.token }),
});
const member = (account: Pick<Account, 'id'>) => `/members/${account.id}`;
const rolePermissions = (slug: string) => `/roles/${roleIds[slug]}/permissions`;
const forbidden = (message: string) => ({ status: 403, body: { message } });
const userRole = async (who: Account, tenant: Tenant) => (await as(who, tenant).get('/user-role')).body as { role: string; permissions: string[] };
const lastAudit = async (tenant: Tenant, model: string) => (await auditRowsOf(server, tenant, model)).at(-1);
const LAST_OWNER = 'The last owner of the organization cannot be demoted, removed or denied a permission of the owner role.';

/** The seeded acme, read but never changed here. */
const acme = { path: (path: string) => `/api/acme${path}` };
const seeded = async (email: string): Promise<Account> => {
  const [row] = await server.sql<{ id: number }>('SELECT id FROM users WHERE email = $1', [email]);
  return { id: row!.id, email, token: await server.login(email) };
};

describe('GET {t}/members', () => {
  it('lists the members with their role and per-user lists', async () => {
    const [owner, editor] = await Promise.all([seeded('owner@acme.test'), seeded('editor@acme.test')]);
    const response = await as(owner, acme).get('/members');
    expect(response.status).toBe(200);
    expect(response.body.data.map((entry: { email: string }) => entry.email)).toEqual(['owner@acme.test', 'editor@acme.test', 'viewer@acme.test', 'contributor@acme.test']);
    expect(response.body.data[1]).toEqual({
      id: editor.id,
      name: 'Eddie Editor',
      email: 'editor@acme.test',
      role: { id: roleIds.editor, name: 'Editor', slug: 'editor' },
      granted_permissions: [],
      denied_permissions: ['posts.forceDelete'],
    });
  });

  it('needs memberships.index, and membership of the organization', async () => {
    const [editor, globex] = await Promise.all([seeded('editor@acme.test'), seeded('owner@globex.test')]);
    expect(await as(editor, acme).get('/members')).toMatchObject(forbidden('This action is unauthorized.'));
    expect(await as(globex, acme).get('/members')).toMatchObject({ status: 404 });
  });
});

describe('role permissions', () => {
  it('reads and replaces a role’s permissions in the organization, effective on the members’ next request, audited', async () => {
    const [owner, viewer] = await createAccounts(server, 'owner', 'viewer');
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: viewer, role: 'viewer' },
    ]);
    expect(await as(owner, tenant).get(rolePermissions('viewer'))).toMatchObject({
      status: 200,
      body: { role: { id: roleIds.viewer, slug: 'viewer', name: 'Viewer' }, permissions: ['posts.index', 'posts.show', 'comments.index'] },
    });
    const changed = await as(owner, tenant).put(rolePermissions('viewer'), { permissions: ['posts.index', 'posts.show', 'comments.index', 'comments.show'] });
    expect(changed).toMatchObject({ status: 200, body: { permissions: ['posts.index', 'posts.show', 'comments.index', 'comments.show'] } });
    expect((await userRole(viewer, tenant)).permissions).toContain('comments.show');
    expect(await lastAudit(tenant, 'role_permissions')).toMatchObject({
      record_id: String(roleIds.viewer),
      action: 'updated',
      old_values: { permissions: ['posts.index', 'posts.show', 'comments.index'] },
      new_values: { permissions: ['posts.index', 'posts.show', 'comments.index', 'comments.show'] },
      user_id: owner.id,
    });
    // acme's viewer role is its own
    expect((await server.sql("SELECT permissions FROM org_role_permissions p JOIN organizations o ON o.id = p.organization_id WHERE o.slug = 'acme' AND role_id = $1", [roleIds.viewer]))[0]).toEqual({
      permissions: ['posts.index', 'posts.show', 'comments.index'],
    });
  });

  it('needs roles.show and roles.update', async () => {
    const viewer = await seeded('viewer@acme.test');
    expect(await as(viewer, acme).get(rolePermissions('viewer'))).toMatchObject(forbidden('This action is unauthorized.'));
    expect(await as(viewer, acme).put(rolePermissions('viewer'), { permissions: [] })).toMatchObject(forbidden('This action is unauthorized.'));
  });

  it('answers an unknown role with 404, a bad list with 422, and keeps the owner role as it is', async () => {
    const owner = await seeded('owner@acme.test');
    expect(await as(owner, acme).get('/roles/999999/permissions')).toMatchObject({ status: 404, body: { message: 'Role not found.' } });
    const invalid = await as(owner, acme).put(rolePermissions('viewer'), { permissions: ['posts index'] });
    expect(invalid).toMatchObject({ status: 422, body: { errors: { 'permissions.0': ['The permissions field holds an invalid permission: "posts index" (it contains whitespace).'] } } });
    expect((await as(owner, acme).put(rolePermissions('viewer'), { permission: [] })).status).toBe(422);
    expect(await as(owner, acme).put(rolePermissions('owner'), { permissions: ['posts.index'] })).toMatchObject(forbidden('The permissions of the owner role cannot be changed.'));
  });
});

describe('PATCH {t}/members/{id}', () => {
  it('changes a member’s role and lists, effective on their very next request, audited', async () => {
    const [owner, viewer] = await createAccounts(server, 'owner', 'viewer');
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: viewer, role: 'viewer', granted: ['comments.store'] },
    ]);
    const response = await as(owner, tenant).patch(member(viewer), { role_id: roleIds.editor, granted_permissions: [], denied_permissions: ['comments.destroy'] });
    expect(response).toMatchObject({ status: 200, body: { role: { slug: 'editor' }, granted_permissions: [], denied_permissions: ['comments.destroy'] } });
    const seen = await userRole(viewer, tenant);
    expect(seen.role).toBe('editor');
    expect(seen.permissions).toContain('!comments.destroy');
    expect(await lastAudit(tenant, 'memberships')).toMatchObject({
      record_id: String(viewer.id),
      action: 'updated',
      old_values: { role_id: roleIds.viewer, granted_permissions: ['comments.store'], denied_permissions: [] },
      new_values: { role_id: roleIds.editor, granted_permissions: [], denied_permissions: ['comments.destroy'] },
      user_id: owner.id,
    });
  });

  it('refuses escalation with 403 naming the permission', async () => {
    const [owner, editor, viewer] = await createAccounts(server, 'owner', 'editor', 'viewer');
    // The editor may administer members, but holds neither posts.forceDelete nor *.
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: editor, role: 'editor', granted: ['memberships.*'], denied: ['posts.forceDelete'] },
      { account: viewer, role: 'viewer' },
    ]);
    const editing = as(editor, tenant);
    expect(await editing.patch(member(viewer), { granted_permissions: ['posts.forceDelete'] })).toMatchObject(
      forbidden('You do not hold the permission posts.forceDelete, so you cannot grant or change it.'),
    );
    expect(await editing.patch(member(viewer), { role_id: roleIds.owner })).toMatchObject(forbidden('You do not hold the permission *, so you cannot grant or change it.'));
    // Lifting a deny grants too.
    await as(owner, tenant).patch(member(viewer), { denied_permissions: ['posts.forceDelete'] });
    expect(await editing.patch(member(viewer), { denied_permissions: [] })).toMatchObject(
      forbidden('You do not hold the permission posts.forceDelete, so you cannot grant or change it.'),
    );
    // Nobody reworks a member above them.
    expect(await editing.patch(member(owner), { granted_permissions: ['posts.index'] })).toMatchObject(
      forbidden('You do not hold the permission *, so you cannot grant or change it.'),
    );
    expect(await editing.patch(member(editor), { role_id: roleIds.viewer })).toMatchObject(forbidden('You cannot change your own role.'));
    // What the editor holds, the editor may hand out.
    expect(await editing.patch(member(viewer), { granted_permissions: ['comments.store', 'posts.update'] })).toMatchObject({
      status: 200,
      body: { granted_permissions: ['comments.store', 'posts.update'] },
    });
    expect((await userRole(viewer, tenant)).permissions).toContain('posts.update');
    expect(await server.sql("SELECT count(*)::int AS n FROM user_roles WHERE organization_id = $1 AND 'posts.forceDelete' = ANY (granted_permissions)", [tenant.id])).toEqual([{ n: 0 }]);
  });

  it('keeps the last owner: no one changes their own role, the last owner is neither demoted nor removed', async () => {
    const [owner, editor] = await createAccounts(server, 'owner', 'editor');
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: editor, role: 'editor' },
    ]);
    expect(await as(owner, tenant).patch(member(owner), { role_id: roleIds.viewer })).toMatchObject(forbidden('You cannot change your own role.'));
    expect(await as(owner, tenant).delete(member(owner))).toMatchObject(forbidden(LAST_OWNER));
    expect((await as(owner, tenant).patch(member(editor), { role_id: roleIds.owner })).body).toMatchObject({ role: { slug: 'owner' } });
    expect((await as(editor, tenant).patch(member(owner), { role_id: roleIds.viewer })).body).toMatchObject({ role: { slug: 'viewer' } });
    expect(await as(editor, tenant).delete(member(editor))).toMatchObject(forbidden(LAST_OWNER));
  });

  it('answers a non-member with 404, a bad body with 422', async () => {
    const [owner, viewer, outsider] = await createAccounts(server, 'owner', 'viewer', 'outsider');
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: viewer, role: 'viewer' },
    ]);
    const owning = as(owner, tenant);
    expect(await owning.patch(member(outsider), { granted_permissions: [] })).toMatchObject({ status: 404, body: { message: 'Member not found.' } });
    expect(await owning.patch('/members/abc', {})).toMatchObject({ status: 404 });
    expect((await owning.patch(member(viewer), { role_id: 'owner' })).status).toBe(422);
    expect(await owning.patch(member(viewer), { role_id: 999999 })).toMatchObject({ status: 422, body: { errors: { role_id: ['The selected role is invalid.'] } } });
  });
});

describe('DELETE {t}/members/{id}', () => {
  it('ends a membership, effective on the next request, audited', async () => {
    const [owner, editor, viewer] = await createAccounts(server, 'owner', 'editor', 'viewer');
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: editor, role: 'editor', granted: ['memberships.*'] },
      { account: viewer, role: 'viewer' },
    ]);
    expect((await as(viewer, tenant).get('/roles')).status).toBe(200);
    expect(await as(editor, tenant).delete(member(viewer))).toMatchObject({ status: 200, body: { message: 'Member removed.' } });
    expect((await as(viewer, tenant).get('/roles')).status).toBe(404);
    expect(await lastAudit(tenant, 'memberships')).toMatchObject({ record_id: String(viewer.id), action: 'deleted', new_values: null, user_id: editor.id });
  });
});
