import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idOf } from '../support/data-server.js';
import { createAccounts, createTenant, membershipsOf, auditRowsOf, type Account, type Tenant } from '../support/tenant-fixture.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Issue 28, findings 1 and 2: an organization never ends without an owner who holds the owner
// role's permissions, however its owners demote, remove and deny each other at the same moment.
let server: TestServer;
let editorRole: number;
let alice: Account;
let bob: Account;

beforeAll(async () => {
  server = await startTestServer();
  editorRole = await idOf(server, 'roles', 'slug', 'editor');
  [alice, bob] = await createAccounts(server, 'alice', 'bob');
});

afterAll(() => server.close());

const patch = (tenant: Tenant, actor: Account, target: Account, body: unknown) =>
  server.api.request('PATCH', tenant.path(`/members/${target.id}`), { token: actor.token, body });
const remove = (tenant: Tenant, actor: Account, target: Account) => server.api.delete(tenant.path(`/members/${target.id}`), { token: actor.token });

/** Owners whose denials take nothing from the owner role's `*`. */
const effectiveOwners = async (tenant: Tenant) =>
  (await membershipsOf(server, tenant)).filter((member) => member.role === 'owner' && member.denied_permissions.length === 0);

describe('the last owner', () => {
  it('is never lost to concurrent demotions, removals and denials', async () => {
    const attacks: ((tenant: Tenant) => Promise<{ status: number }[]>)[] = [
      (tenant) => Promise.all([patch(tenant, alice, bob, { role_id: editorRole }), patch(tenant, bob, alice, { role_id: editorRole })]),
      (tenant) => Promise.all([remove(tenant, alice, alice), patch(tenant, alice, bob, { role_id: editorRole })]),
      (tenant) => Promise.all([patch(tenant, alice, bob, { denied_permissions: ['*'] }), patch(tenant, bob, alice, { denied_permissions: ['*'] })]),
      (tenant) => Promise.all([remove(tenant, bob, bob), patch(tenant, bob, alice, { denied_permissions: ['posts.destroy'] })]),
      (tenant) => Promise.all([remove(tenant, alice, bob), remove(tenant, bob, alice)]),
    ];
    for (let round = 0; round < 50; round++) {
      const tenant = await createTenant(server, [
        { account: alice, role: 'owner' },
        { account: bob, role: 'owner' },
      ]);
      const answers = await attacks[round % attacks.length]!(tenant);
      // One of the two goes through; the other is refused, or finds its actor no longer a member.
      expect(answers.map((answer) => (answer.status === 404 ? 403 : answer.status)).sort(), `round ${round}`).toEqual([200, 403]);
      expect(await effectiveOwners(tenant), `round ${round}`).toHaveLength(1);
    }
  });

  it('cannot be denied the owner role’s permissions, in whole or in part', async () => {
    const [helper] = await createAccounts(server, 'helper');
    const tenant = await createTenant(server, [
      { account: alice, role: 'owner' },
      { account: helper, role: 'editor', granted: ['memberships.update'] },
    ]);
    const message = 'The last owner of the organization cannot be demoted, removed or denied a permission of the owner role.';
    for (const denied of [['*'], ['memberships.update'], ['posts.*']]) {
      expect(await patch(tenant, alice, alice, { denied_permissions: denied })).toMatchObject({ status: 403, body: { message } });
    }
    expect(await membershipsOf(server, tenant)).toMatchObject([{ user_id: alice.id, role: 'owner', denied_permissions: [] }, { denied_permissions: [] }]);
    expect(await auditRowsOf(server, tenant, 'memberships')).toEqual([]);
    // A second owner lifts the rule for the first.
    await server.sql("UPDATE user_roles SET role_id = (SELECT id FROM roles WHERE slug = 'owner') WHERE organization_id = $1 AND user_id = $2", [tenant.id, helper.id]);
    expect(await patch(tenant, helper, alice, { denied_permissions: ['posts.forceDelete'] })).toMatchObject({ status: 200 });
  });
});
