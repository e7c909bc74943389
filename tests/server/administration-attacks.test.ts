import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idOf } from './support/data-server.js';
import { mailCount } from './support/mail.js';
import { auditRowsOf, createAccounts, createTenant, membershipsOf, type Account, type Tenant } from './support/tenant-fixture.js';
import { startTestServer, type TestServer } from './support/test-server.js';

// Issue 28, findings 4, 5, 7 and 8: members with some administration rights try to reach past
// them. Each attack is refused and leaves the database as it was, without an audit row.
let server: TestServer;
let roleIds: Record<'owner' | 'viewer', number>;

beforeAll(async () => {
  server = await startTestServer();
  roleIds = { owner: await idOf(server, 'roles', 'slug', 'owner'), viewer: await idOf(server, 'roles', 'slug', 'viewer') };
});

afterAll(() => server.close());

const patch = (tenant: Tenant, actor: Account, target: number, body: unknown) =>
  server.api.request('PATCH', tenant.path(`/members/${target}`), { token: actor.token, body });
const forbidden = (message: string) => ({ status: 403, body: { message } });

describe('a member’s PATCH (finding 4)', () => {
  it('refuses to take away a grant, or add a deny, the actor does not hold', async () => {
    const [owner, delegate, target] = await createAccounts(server, 'owner', 'delegate', 'target');
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: delegate, role: 'viewer', granted: ['memberships.update', 'comments.store'] },
      { account: target, role: 'viewer', granted: ['comments.store', 'posts.forceDelete'] },
    ]);
    const before = await membershipsOf(server, tenant);
    expect(await patch(tenant, delegate, target.id, { granted_permissions: ['comments.store'] })).toMatchObject(
      forbidden('You do not hold the permission posts.forceDelete, so you cannot grant or change it.'),
    );
    expect(await patch(tenant, delegate, target.id, { denied_permissions: ['*'] })).toMatchObject(
      forbidden('You do not hold the permission *, so you cannot grant or change it.'),
    );
    expect(await membershipsOf(server, tenant)).toEqual(before);
    expect(await auditRowsOf(server, tenant, 'memberships')).toEqual([]);
    // What the delegate holds, the delegate may still take away.
    expect(await patch(tenant, delegate, target.id, { granted_permissions: ['posts.forceDelete'] })).toMatchObject({ status: 200 });
  });
});

describe('a member escalating themselves', () => {
  it('cannot raise their own role, grants or role permissions, nor lift their own deny', async () => {
    const [owner, delegate, denied] = await createAccounts(server, 'owner', 'delegate', 'denied');
    const ADMINISTERS = ['memberships.update', 'roles.show', 'roles.update'];
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: delegate, role: 'viewer', granted: ADMINISTERS },
      { account: denied, role: 'viewer', granted: ADMINISTERS, denied: ['comments.index'] },
    ]);
    const before = await membershipsOf(server, tenant);
    const rolesBefore = await server.sql('SELECT role_id, permissions FROM org_role_permissions WHERE organization_id = $1 ORDER BY role_id', [tenant.id]);
    expect(await patch(tenant, delegate, delegate.id, { role_id: roleIds.owner })).toMatchObject(forbidden('You cannot change your own role.'));
    expect(await patch(tenant, delegate, delegate.id, { granted_permissions: [...ADMINISTERS, 'posts.destroy'] })).toMatchObject(
      forbidden('You do not hold the permission posts.destroy, so you cannot grant or change it.'),
    );
    const ownRole = server.api.request('PUT', tenant.path(`/roles/${roleIds.viewer}/permissions`), { token: delegate.token, body: { permissions: ['posts.*', 'comments.index'] } });
    expect(await ownRole).toMatchObject(forbidden('You do not hold the permission posts.*, so you cannot grant or change it.'));
    expect(await patch(tenant, denied, denied.id, { denied_permissions: [] })).toMatchObject(
      forbidden('You do not hold the permission comments.index, so you cannot grant or change it.'),
    );
    expect(await membershipsOf(server, tenant)).toEqual(before);
    expect(await server.sql('SELECT role_id, permissions FROM org_role_permissions WHERE organization_id = $1 ORDER BY role_id', [tenant.id])).toEqual(rolesBefore);
    expect(await auditRowsOf(server, tenant, 'memberships')).toEqual([]);
  });

  it('cannot carry administration rights of one organization into another', async () => {
    const [member] = await createAccounts(server, 'member');
    await createTenant(server, [{ account: member, role: 'owner' }]);
    const other = await createTenant(server, [{ account: member, role: 'viewer' }]);
    const response = await patch(other, member, member.id, { granted_permissions: ['posts.destroy'] });
    expect(response).toMatchObject({ status: 403, body: { message: 'This action is unauthorized.', reason: { permission: 'memberships.update' } } });
    expect((await membershipsOf(server, other))[0]).toMatchObject({ role: 'viewer', granted_permissions: [] });
  });
});

describe('removing a member whose role holds more', () => {
  it('is refused to a member who may remove members but lacks one permission of that role', async () => {
    const [owner, secondOwner, delegate, target, peer] = await createAccounts(server, 'owner', 'second-owner', 'delegate', 'target', 'peer');
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: secondOwner, role: 'owner' },
      // All of the editor role but posts.forceDelete (so not posts.*), and the right to remove members.
      { account: delegate, role: 'editor', granted: ['memberships.destroy'], denied: ['posts.forceDelete'] },
      { account: target, role: 'editor' },
      { account: peer, role: 'editor', granted: ['memberships.destroy'] },
    ]);
    const before = await membershipsOf(server, tenant);
    for (const victim of [target, secondOwner]) {
      expect(await server.api.delete(tenant.path(`/members/${victim.id}`), { token: delegate.token })).toMatchObject(
        forbidden(`You do not hold the permission ${victim === target ? 'posts.*' : '*'}, so you cannot grant or change it.`),
      );
    }
    expect(await membershipsOf(server, tenant)).toEqual(before);
    expect(await auditRowsOf(server, tenant, 'memberships')).toEqual([]);
    // The one missing permission is the reason: a peer who holds the whole editor role may.
    expect(await server.api.delete(tenant.path(`/members/${target.id}`), { token: peer.token })).toMatchObject({ status: 200 });
  });
});

describe('member administration without the permission (finding 8)', () => {
  it('is a 403 whether or not the member exists', async () => {
    const [owner, viewer, outsider] = await createAccounts(server, 'owner', 'viewer', 'outsider');
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: viewer, role: 'viewer' },
    ]);
    const before = await membershipsOf(server, tenant);
    for (const id of [owner.id, outsider.id, 2147483647, 'abc']) {
      expect(await server.api.delete(tenant.path(`/members/${id}`), { token: viewer.token })).toMatchObject(forbidden('This action is unauthorized.'));
      expect(await server.api.request('PATCH', tenant.path(`/members/${id}`), { token: viewer.token, body: { granted_permissions: [] } })).toMatchObject(
        forbidden('This action is unauthorized.'),
      );
    }
    expect(await membershipsOf(server, tenant)).toEqual(before);
    expect(await auditRowsOf(server, tenant, 'memberships')).toEqual([]);
  });
});

describe('invitations', () => {
  const invite = (tenant: Tenant, actor: Account, email: string, role: keyof typeof roleIds = 'viewer') =>
    server.api.post(tenant.path('/invitations'), { token: actor.token, body: { email, role_id: roleIds[role] } });
  const resend = (tenant: Tenant, actor: Account, id: number) => server.api.post(tenant.path(`/invitations/${id}/resend`), { token: actor.token });
  const invitationRow = async (id: number) => (await server.sql('SELECT token_hash, expires_at, status FROM invitations WHERE id = $1', [id]))[0];

  it('count per organization: one tenant cannot use up another’s limit for an invitee (finding 5)', async () => {
    const [attacker, victimOwner] = await createAccounts(server, 'attacker', 'victim-owner');
    const evil = await createTenant(server, [{ account: attacker, role: 'owner' }]);
    const acme = await createTenant(server, [{ account: victimOwner, role: 'owner' }]);
    const invitee = `invitee-${evil.slug}@attack.test`;
    const created = await invite(evil, attacker, invitee);
    expect(created.status).toBe(201);
    for (let send = 2; send <= 5; send++) expect((await resend(evil, attacker, created.body.id)).status).toBe(200);
    expect((await resend(evil, attacker, created.body.id)).status).toBe(429);
    expect(await invite(acme, victimOwner, invitee)).toMatchObject({ status: 201, body: { email: invitee, organization_id: acme.id } });
    expect(await mailCount(server, invitee)).toBe(6);
  });

  it('resend checks the may-grant rule again and refuses an expired invitation (finding 7)', async () => {
    const [owner, inviter] = await createAccounts(server, 'owner', 'inviter');
    const tenant = await createTenant(server, [
      { account: owner, role: 'owner' },
      { account: inviter, role: 'viewer', granted: ['invitations.*'] },
    ]);
    const email = `promoted-${tenant.slug}@attack.test`;
    const created = await invite(tenant, owner, email, 'owner');
    expect(created.status).toBe(201);
    const pending = await invitationRow(created.body.id);
    expect(await resend(tenant, inviter, created.body.id)).toMatchObject(forbidden('You cannot invite with a role that has permissions you do not hold.'));
    expect(await invitationRow(created.body.id)).toEqual(pending);

    await server.sql("UPDATE invitations SET expires_at = now() - interval '1 hour' WHERE id = $1", [created.body.id]);
    const expired = await invitationRow(created.body.id);
    for (const actor of [inviter, owner]) {
      expect(await resend(tenant, actor, created.body.id)).toMatchObject({
        status: 422,
        body: { errors: { status: ['This invitation has expired: create a new one.'] } },
      });
    }
    expect(await invitationRow(created.body.id)).toEqual(expired);
    expect(await mailCount(server, email)).toBe(1);
  });
});
