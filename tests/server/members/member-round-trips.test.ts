import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { auditRowsOf, createAccounts, createTenant, membershipsOf, type Account } from '../support/tenant-fixture.js';
import { startTcpProxy, withRoundTrips, type TcpProxy } from '../support/tcp-proxy.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Issue 27: the administration writes of a tenant take two round trips, as data writes do: the
// opening with what they read (the member and their role's permissions, the role the body names,
// the owners locked for the last-owner rule), then the write, its audit row and COMMIT. Counted on
// the wire by a TCP proxy between the server and PostgreSQL.
let proxy: TcpProxy;
let server: TestServer;
let roleIds: Record<string, number>;
let owner: Account;
let viewer: Account;
let outsider: Account;

beforeAll(async () => {
  proxy = await startTcpProxy(Number(new URL(inject('clusterUrl')).port));
  server = await startTestServer({ databasePort: proxy.port });
  roleIds = Object.fromEntries((await server.sql<{ id: number; slug: string }>('SELECT id, slug FROM roles')).map((role) => [role.slug, role.id]));
  [owner, viewer, outsider] = await createAccounts(server, 'owner', 'viewer', 'outsider');
});

afterAll(async () => {
  await server.close();
  await proxy.stop();
});

const send = (who: Account, method: string, path: string, body?: unknown) => withRoundTrips(proxy, () => server.api.request(method, path, { token: who.token, body }));

describe('administration writes take two round trips', () => {
  it('PATCH, DELETE {t}/members/{id} and PUT {t}/roles/{id}/permissions, each audited; GET a role’s permissions in one', async () => {
    const [editor] = await createAccounts(server, 'editor');
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: editor, role: 'editor' },
      { account: viewer, role: 'viewer' },
    ]);
    const patched = await send(owner, 'PATCH', tenant.path(`/members/${viewer.id}`), { role_id: roleIds.editor, denied_permissions: ['comments.destroy'] });
    expect([patched.response.status, patched.roundTrips]).toEqual([200, 2]);
    expect(patched.response.body).toMatchObject({ id: viewer.id, role: { id: roleIds.editor, slug: 'editor', name: 'Editor' }, denied_permissions: ['comments.destroy'] });
    const lists = await send(owner, 'PATCH', tenant.path(`/members/${viewer.id}`), { granted_permissions: ['posts.update'] });
    expect([lists.response.status, lists.roundTrips]).toEqual([200, 2]);
    const shown = await send(owner, 'GET', tenant.path(`/roles/${roleIds.viewer}/permissions`));
    expect([shown.response.status, shown.roundTrips]).toEqual([200, 1]);
    const replaced = await send(owner, 'PUT', tenant.path(`/roles/${roleIds.viewer}/permissions`), { permissions: ['posts.index'] });
    expect([replaced.response.status, replaced.roundTrips]).toEqual([200, 2]);
    const removed = await send(owner, 'DELETE', tenant.path(`/members/${editor.id}`));
    expect([removed.response.status, removed.roundTrips]).toEqual([200, 2]);
    expect(await auditRowsOf(server, tenant, 'memberships')).toEqual([
      {
        record_id: String(viewer.id),
        action: 'updated',
        old_values: { role_id: roleIds.viewer, denied_permissions: [] },
        new_values: { role_id: roleIds.editor, denied_permissions: ['comments.destroy'] },
        user_id: owner.id,
      },
      { record_id: String(viewer.id), action: 'updated', old_values: { granted_permissions: [] }, new_values: { granted_permissions: ['posts.update'] }, user_id: owner.id },
      { record_id: String(editor.id), action: 'deleted', old_values: { role_id: roleIds.editor, granted_permissions: [], denied_permissions: [] }, new_values: null, user_id: owner.id },
    ]);
    expect(await auditRowsOf(server, tenant, 'role_permissions')).toEqual([
      { record_id: String(roleIds.viewer), action: 'updated', old_values: { permissions: ['posts.index', 'posts.show', 'comments.index'] }, new_values: { permissions: ['posts.index'] }, user_id: owner.id },
    ]);
  });

  it('a change that changes nothing: no audit row', async () => {
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: viewer, role: 'viewer' },
    ]);
    const same = await send(owner, 'PATCH', tenant.path(`/members/${viewer.id}`), { role_id: roleIds.viewer, granted_permissions: [] });
    expect([same.response.status, same.roundTrips]).toEqual([200, 2]);
    expect(same.response.body).toMatchObject({ role: { slug: 'viewer' }, granted_permissions: [] });
    expect(await auditRowsOf(server, tenant, 'memberships')).toEqual([]);
  });
});

describe('invitations', () => {
  it('POST {t}/invitations takes four, a resend three, DELETE {t}/invitations/{id} two: what they read with the opening, the change (and the mail) with COMMIT', async () => {
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: viewer, role: 'viewer' },
    ]);
    // Creating one waits for the throttle and for the insert, which may lose a race, before its mail and COMMIT.
    const { response: invited, roundTrips } = await send(owner, 'POST', tenant.path('/invitations'), { email: 'invitee@example.test', role_id: roleIds.viewer });
    expect([invited.status, roundTrips]).toEqual([201, 4]);
    const again = await send(owner, 'POST', tenant.path('/invitations'), { email: 'invitee@example.test', role_id: roleIds.viewer });
    expect([again.response.status, again.response.body.errors]).toEqual([422, { email: ['An invitation is already pending for this email address.'] }]);
    // A resend waits once more: the mail throttle decides before anything is written.
    const resent = await send(owner, 'POST', tenant.path(`/invitations/${invited.body.id}/resend`));
    expect([resent.response.status, resent.response.body.status, resent.roundTrips]).toEqual([200, 'pending', 3]);
    const refused = await send(viewer, 'DELETE', tenant.path(`/invitations/${invited.body.id}`));
    expect([refused.response.status, refused.response.body, refused.roundTrips]).toEqual([403, { message: 'This action is unauthorized.', reason: { gate: 'administration', permission: 'invitations.destroy' } }, 2]);
    const cancelled = await send(owner, 'DELETE', tenant.path(`/invitations/${invited.body.id}`));
    expect([cancelled.response.status, cancelled.response.body.message, cancelled.response.body.invitation.status, cancelled.roundTrips]).toEqual([200, 'Invitation cancelled.', 'cancelled', 2]);
    const twice = await send(owner, 'DELETE', tenant.path(`/invitations/${invited.body.id}`));
    expect([twice.response.status, twice.response.body.errors, twice.roundTrips]).toEqual([422, { status: ['Only pending invitations can be cancelled.'] }, 2]);
    expect(await server.sql('SELECT status FROM invitations WHERE id = $1', [invited.body.id])).toEqual([{ status: 'cancelled' }]);
  });
});

describe('what they read ahead, a refusal never answers', () => {
  it('a member without the permission, a non-member, an unknown member: the same statuses, nothing written', async () => {
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: viewer, role: 'viewer' },
    ]);
    const before = await membershipsOf(server, tenant);
    const refusals: [Account, string, string, unknown, number, string][] = [
      [viewer, 'PATCH', `/members/${owner.id}`, { role_id: roleIds.viewer }, 403, 'This action is unauthorized.'],
      [viewer, 'DELETE', `/members/${owner.id}`, undefined, 403, 'This action is unauthorized.'],
      [viewer, 'PUT', `/roles/${roleIds.editor}/permissions`, { permissions: [] }, 403, 'This action is unauthorized.'],
      [outsider, 'PATCH', `/members/${owner.id}`, { role_id: roleIds.viewer }, 404, 'Organization not found'],
      [outsider, 'DELETE', `/members/${owner.id}`, undefined, 404, 'Organization not found'],
      [owner, 'PATCH', `/members/${outsider.id}`, { granted_permissions: [] }, 404, 'Member not found.'],
      [owner, 'PATCH', `/members/${viewer.id}`, { role_id: 999999 }, 422, 'The given data was invalid.'],
    ];
    for (const [who, method, path, body, status, message] of refusals) {
      const { response, roundTrips } = await send(who, method, tenant.path(path), body);
      expect([method, path, response.status, response.body.message]).toEqual([method, path, status, message]);
      expect(JSON.stringify(response.body)).not.toContain(owner.email);
      expect(roundTrips).toBeLessThanOrEqual(2);
    }
    expect(await membershipsOf(server, tenant)).toEqual(before);
    expect(await auditRowsOf(server, tenant, 'memberships')).toEqual([]);
    expect(await auditRowsOf(server, tenant, 'role_permissions')).toEqual([]);
  });

  it('the last owner: refused in two round trips, nothing written', async () => {
    const tenant = await createTenant(server, [{ account: owner, role: 'owner' }]);
    const { response, roundTrips } = await send(owner, 'DELETE', tenant.path(`/members/${owner.id}`));
    expect([response.status, response.body.message, roundTrips]).toEqual([403, 'The last owner of the organization cannot be demoted, removed or denied a permission of the owner role.', 2]);
    expect(await membershipsOf(server, tenant)).toMatchObject([{ user_id: owner.id, role: 'owner' }]);
  });
});

describe('the owners locked with the opening', () => {
  /** Resolves once some backend waits on a row lock: the request's read-ahead has reached the owners' lock. */
  async function untilWaitingOnLock(): Promise<void> {
    for (;;) {
      const [row] = await server.sql<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%for update of %user_roles%'");
      if (row!.n > 0) return;
    }
  }

  it('a demotion waits for a concurrent demotion of the other owner, then sees it: the organization keeps its owner', async () => {
    const [second] = await createAccounts(server, 'second');
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: second, role: 'owner' },
    ]);
    // Another administrator, mid-transaction: it holds the owners' lock and demotes the second owner.
    const other = new pg.Client({ connectionString: server.database.ownerUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query("SELECT 1 FROM user_roles JOIN roles ON roles.id = role_id WHERE organization_id = $1 AND roles.slug = 'owner' FOR UPDATE OF user_roles", [tenant.id]);
      await other.query('UPDATE user_roles SET role_id = $1 WHERE organization_id = $2 AND user_id = $3', [roleIds.editor, tenant.id, second.id]);
      const demotion = send(second, 'PATCH', tenant.path(`/members/${owner.id}`), { role_id: roleIds.editor });
      await untilWaitingOnLock();
      await other.query('COMMIT');
      const { response } = await demotion;
      expect(response.status).toBe(403);
      expect(response.body.message).toBe('The last owner of the organization cannot be demoted, removed or denied a permission of the owner role.');
    } finally {
      await other.end();
    }
    expect((await membershipsOf(server, tenant)).filter((membership) => membership.role === 'owner').map((membership) => membership.user_id)).toEqual([owner.id]);
  });
});
