import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';

// Member and role administration under {t}: each operation behind its own permission, no
// escalation, the last owner kept, effective on the affected user's next request, audited.
let server: TestServer;
let tokens: Record<'owner' | 'editor' | 'viewer' | 'globex', string>;
let roleIds: Record<string, number>;
let userIds: Record<string, number>;

beforeAll(async () => {
  server = await startTestServer();
  const [owner, editor, viewer, globex] = await Promise.all(
    ['owner@acme.test', 'editor@acme.test', 'viewer@acme.test', 'owner@globex.test'].map((email) => server.login(email)),
  );
  tokens = { owner: owner!, editor: editor!, viewer: viewer!, globex: globex! };
  roleIds = Object.fromEntries((await server.sql<{ id: number; slug: string }>('SELECT id, slug FROM roles')).map((role) => [role.slug, role.id]));
  userIds = Object.fromEntries((await server.sql<{ id: number; email: string }>('SELECT id, email FROM users')).map((user) => [user.email, user.id]));
});

afterAll(() => server.close());

const as = (who: keyof typeof tokens) => ({
  get: (path: string) => server.api.get(`/api/acme${path}`, { token: tokens[who] }),
  patch: (path: string, body: unknown) => server.api.request('PATCH', `/api/acme${path}`, { token: tokens[who], body }),
  put: (path: string, body: unknown) => server.api.request('PUT', `/api/acme${path}`, { token: tokens[who], body }),
  delete: (path: string) => server.api.delete(`/api/acme${path}`, { token: tokens[who] }),
});
const member = (email: string) => `/members/${userIds[email]}`;
const rolePermissions = (slug: string) => `/roles/${roleIds[slug]}/permissions`;
const forbidden = (message: string) => ({ status: 403, body: { message } });
const userRole = async (who: keyof typeof tokens) => (await as(who).get('/user-role')).body as { role: string; permissions: string[] };
const lastAudit = async (model: string) =>
  (await server.sql('SELECT model, record_id, action, old_values, new_values, user_id FROM audit_logs WHERE model = $1 ORDER BY id DESC LIMIT 1', [model]))[0];

describe('GET {t}/members', () => {
  it('lists the members with their role and per-user lists', async () => {
    const response = await as('owner').get('/members');
    expect(response.status).toBe(200);
    expect(response.body.data.map((entry: { email: string }) => entry.email)).toEqual(['owner@acme.test', 'editor@acme.test', 'viewer@acme.test']);
    expect(response.body.data[1]).toEqual({
      id: userIds['editor@acme.test'],
      name: 'Eddie Editor',
      email: 'editor@acme.test',
      role: { id: roleIds.editor, name: 'Editor', slug: 'editor' },
      granted_permissions: [],
      denied_permissions: ['posts.forceDelete'],
    });
  });

  it('needs memberships.index, and membership of the organization', async () => {
    expect(await as('editor').get('/members')).toMatchObject(forbidden('This action is unauthorized.'));
    expect(await server.api.get('/api/acme/members', { token: tokens.globex })).toMatchObject({ status: 404 });
  });
});

describe('role permissions', () => {
  it('reads and replaces a role’s permissions in the organization, effective on the members’ next request, audited', async () => {
    expect(await as('owner').get(rolePermissions('viewer'))).toMatchObject({
      status: 200,
      body: { role: { id: roleIds.viewer, slug: 'viewer', name: 'Viewer' }, permissions: ['posts.index', 'posts.show', 'comments.index'] },
    });
    const changed = await as('owner').put(rolePermissions('viewer'), { permissions: ['posts.index', 'posts.show', 'comments.index', 'comments.show'] });
    expect(changed).toMatchObject({ status: 200, body: { permissions: ['posts.index', 'posts.show', 'comments.index', 'comments.show'] } });
    expect((await userRole('viewer')).permissions).toContain('comments.show');
    expect(await lastAudit('role_permissions')).toMatchObject({
      record_id: String(roleIds.viewer),
      action: 'updated',
      old_values: { permissions: ['posts.index', 'posts.show', 'comments.index'] },
      new_values: { permissions: ['posts.index', 'posts.show', 'comments.index', 'comments.show'] },
      user_id: userIds['owner@acme.test'],
    });
    // globex's viewer role is its own
    expect((await server.sql("SELECT permissions FROM org_role_permissions p JOIN organizations o ON o.id = p.organization_id WHERE o.slug = 'globex' AND role_id = $1", [roleIds.viewer]))[0]).toEqual({
      permissions: ['posts.index', 'posts.show', 'comments.index'],
    });
  });

  it('needs roles.show and roles.update', async () => {
    expect(await as('viewer').get(rolePermissions('viewer'))).toMatchObject(forbidden('This action is unauthorized.'));
    expect(await as('viewer').put(rolePermissions('viewer'), { permissions: [] })).toMatchObject(forbidden('This action is unauthorized.'));
  });

  it('answers an unknown role with 404, a bad list with 422, and keeps the owner role as it is', async () => {
    expect(await as('owner').get('/roles/999999/permissions')).toMatchObject({ status: 404, body: { message: 'Role not found.' } });
    const invalid = await as('owner').put(rolePermissions('viewer'), { permissions: ['posts index'] });
    expect(invalid).toMatchObject({ status: 422, body: { errors: { 'permissions.0': ['The permissions field holds an invalid permission: "posts index".'] } } });
    expect((await as('owner').put(rolePermissions('viewer'), { permission: [] })).status).toBe(422);
    expect(await as('owner').put(rolePermissions('owner'), { permissions: ['posts.index'] })).toMatchObject(forbidden('The permissions of the owner role cannot be changed.'));
  });
});

describe('PATCH {t}/members/{id}', () => {
  it('changes a member’s role and lists, effective on their very next request, audited', async () => {
    const response = await as('owner').patch(member('viewer@acme.test'), { role_id: roleIds.editor, granted_permissions: [], denied_permissions: ['comments.destroy'] });
    expect(response).toMatchObject({ status: 200, body: { role: { slug: 'editor' }, granted_permissions: [], denied_permissions: ['comments.destroy'] } });
    const seen = await userRole('viewer');
    expect(seen.role).toBe('editor');
    expect(seen.permissions).toContain('!comments.destroy');
    expect(await lastAudit('memberships')).toMatchObject({
      record_id: String(userIds['viewer@acme.test']),
      action: 'updated',
      old_values: { role_id: roleIds.viewer, granted_permissions: ['comments.store'], denied_permissions: [] },
      new_values: { role_id: roleIds.editor, granted_permissions: [], denied_permissions: ['comments.destroy'] },
      user_id: userIds['owner@acme.test'],
    });
    expect((await as('owner').patch(member('viewer@acme.test'), { role_id: roleIds.viewer, denied_permissions: [] })).status).toBe(200);
  });

  it('refuses escalation with 403 naming the permission', async () => {
    // The editor may now administer members, but still holds neither posts.forceDelete nor *.
    await as('owner').put(rolePermissions('editor'), { permissions: ['posts.*', 'comments.*', 'users.index', 'memberships.*'] });
    expect(await as('editor').patch(member('viewer@acme.test'), { granted_permissions: ['posts.forceDelete'] })).toMatchObject(
      forbidden('You do not hold the permission posts.forceDelete, so you cannot grant or change it.'),
    );
    expect(await as('editor').patch(member('viewer@acme.test'), { role_id: roleIds.owner })).toMatchObject(
      forbidden('You do not hold the permission *, so you cannot grant or change it.'),
    );
    // Lifting a deny grants too.
    await as('owner').patch(member('viewer@acme.test'), { denied_permissions: ['posts.forceDelete'] });
    expect(await as('editor').patch(member('viewer@acme.test'), { denied_permissions: [] })).toMatchObject(
      forbidden('You do not hold the permission posts.forceDelete, so you cannot grant or change it.'),
    );
    // Nobody reworks a member above them.
    expect(await as('editor').patch(member('owner@acme.test'), { granted_permissions: ['posts.index'] })).toMatchObject(
      forbidden('You do not hold the permission *, so you cannot grant or change it.'),
    );
    expect(await as('editor').patch(member('editor@acme.test'), { role_id: roleIds.viewer })).toMatchObject(forbidden('You cannot change your own role.'));
    // What the editor holds, the editor may hand out.
    expect(await as('editor').patch(member('viewer@acme.test'), { granted_permissions: ['comments.store', 'posts.update'] })).toMatchObject({
      status: 200,
      body: { granted_permissions: ['comments.store', 'posts.update'] },
    });
    expect((await userRole('viewer')).permissions).toContain('posts.update');
    expect(await server.sql("SELECT count(*)::int AS n FROM user_roles WHERE 'posts.forceDelete' = ANY (granted_permissions)")).toEqual([{ n: 0 }]);
  });

  it('keeps the last owner: no one changes their own role, the last owner is neither demoted nor removed', async () => {
    expect(await as('owner').patch(member('owner@acme.test'), { role_id: roleIds.viewer })).toMatchObject(forbidden('You cannot change your own role.'));
    expect(await as('owner').delete(member('owner@acme.test'))).toMatchObject(forbidden('The last owner of the organization cannot be demoted, removed or denied a permission of the owner role.'));
    expect((await as('owner').patch(member('editor@acme.test'), { role_id: roleIds.owner, denied_permissions: [] })).body).toMatchObject({ role: { slug: 'owner' } });
    expect((await as('editor').patch(member('owner@acme.test'), { role_id: roleIds.viewer })).body).toMatchObject({ role: { slug: 'viewer' } });
    expect(await as('editor').delete(member('editor@acme.test'))).toMatchObject(forbidden('The last owner of the organization cannot be demoted, removed or denied a permission of the owner role.'));
  });

  it('answers a non-member with 404, a bad body with 422', async () => {
    expect(await as('editor').patch(`/members/${userIds['owner@globex.test']}`, { granted_permissions: [] })).toMatchObject({ status: 404, body: { message: 'Member not found.' } });
    expect(await as('editor').patch('/members/abc', {})).toMatchObject({ status: 404 });
    expect((await as('editor').patch(member('viewer@acme.test'), { role_id: 'owner' })).status).toBe(422);
    expect(await as('editor').patch(member('viewer@acme.test'), { role_id: 999999 })).toMatchObject({ status: 422, body: { errors: { role_id: ['The selected role is invalid.'] } } });
  });
});

describe('DELETE {t}/members/{id}', () => {
  it('ends a membership, effective on the next request, audited', async () => {
    expect(await as('editor').delete(member('viewer@acme.test'))).toMatchObject({ status: 200, body: { message: 'Member removed.' } });
    expect((await as('viewer').get('/roles')).status).toBe(404);
    expect(await lastAudit('memberships')).toMatchObject({ record_id: String(userIds['viewer@acme.test']), action: 'deleted', new_values: null });
  });
});
