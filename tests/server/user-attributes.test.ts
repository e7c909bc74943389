import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDataServer } from './support/data-server.js';
import { createAccounts, createTenant, type Account, type Tenant } from './support/tenant-fixture.js';
import type { TestServer } from './support/test-server.js';

// Issue 28, finding 3: a user's name is seen by every organization they belong to, so no
// organization's owner changes it; the user does, or the non-tenant group with users.*. Audited.
let server: TestServer;
let attacker: Account;

beforeAll(async () => {
  server = await startDataServer();
  [attacker] = await createAccounts(server, 'attacker');
});

/** The test's own user named victim: in a home organization (with users.update) and in the attacker's. */
async function newVictim(): Promise<{ victim: Account; home: Tenant; evil: Tenant }> {
  const [victim] = await createAccounts(server, 'victim');
  const home = await createTenant(server, [{ account: victim, role: 'viewer', granted: ['users.update', 'users.show'] }]);
  const evil = await createTenant(server, [
    { account: attacker, role: 'owner' },
    { account: victim, role: 'viewer' },
  ]);
  return { victim, home, evil };
}

afterAll(() => server.close());

const rename = (path: string, token: string, name: string) => server.api.request('PATCH', path, { token, body: { name } });
const nameOf = async (account: Account) => (await server.sql('SELECT name FROM users WHERE id = $1', [account.id]))[0].name;
// No organization owns a user, so no organization's audit_logs holds a user's trail.
const userAudit = async (account: Account) => {
  expect(await server.sql("SELECT id FROM audit_logs WHERE model = 'users' AND record_id = $1", [String(account.id)])).toEqual([]);
  return server.sql("SELECT action, old_values, new_values, user_id FROM global_audit_logs WHERE model = 'users' AND record_id = $1 ORDER BY id", [String(account.id)]);
};

describe('a user’s name', () => {
  it('is read-only in a tenant, even for a * owner of an organization the user belongs to', async () => {
    const { victim, evil } = await newVictim();
    expect(await rename(evil.path(`/users/${victim.id}`), attacker.token, 'Olivia Owner')).toMatchObject({ status: 403 });
    expect(await nameOf(victim)).toBe('victim');
    expect(await userAudit(victim)).toEqual([]);
  });

  it('is changed by the user themself, audited outside any organization', async () => {
    const { victim, home } = await newVictim();
    expect(await rename(home.path(`/users/${victim.id}`), victim.token, 'Victoria')).toMatchObject({ status: 200, body: { name: 'Victoria' } });
    expect(await userAudit(victim)).toEqual([
      { action: 'updated', old_values: expect.objectContaining({ name: 'victim' }), new_values: expect.objectContaining({ name: 'Victoria' }), user_id: victim.id },
    ]);
    // No organization's trail shows it, not even the one it was changed in.
    expect(await server.api.get(home.path(`/users/${victim.id}/audit`), { token: victim.token })).toMatchObject({ status: 200, body: { data: [] } });
  });

  it('is changed through the non-tenant group with users.*, audited', async () => {
    const { victim, home } = await newVictim();
    expect(await rename(home.path(`/users/${victim.id}`), victim.token, 'Victoria')).toMatchObject({ status: 200 });
    const admin = await server.login('admin@example.test', { path: '/api/admin/auth/login' });
    expect(await rename(`/api/admin/users/${victim.id}`, admin, 'Vic')).toMatchObject({ status: 200, body: { name: 'Vic' } });
    const adminId = (await server.sql("SELECT id FROM users WHERE email = 'admin@example.test'"))[0].id;
    expect((await userAudit(victim)).at(-1)).toMatchObject({ new_values: { name: 'Vic' }, user_id: adminId });
    expect((await server.api.get(`/api/admin/users/${victim.id}/audit`, { token: admin })).body.data).toHaveLength(2);
  });
});
