import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { gatehouseRun } from '../support/gatehouse-in-process.js';
import { queryOnce } from '../support/query.js';

// Issue 28: the operator's commands hold the HTTP API's rules and leave its audit rows, with no
// user (the CLI's actor). On a copy of the demo, where editor@acme.test is a member of acme and
// owner@globex.test is not.
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(() => db.drop());

const sql = <Row extends Record<string, unknown>>(text: string, values: unknown[] = []) => queryOnce<Row>(db.ownerUrl, text, values);

const ACME = `(SELECT id FROM organizations WHERE slug = 'acme')`;

const audits = (model: string) =>
  sql(`SELECT record_id, action, old_values, new_values, user_id FROM audit_logs WHERE organization_id = ${ACME} AND model = $1 ORDER BY id`, [model]);

const ownerPermissions = () => sql(`SELECT p.permissions FROM org_role_permissions p JOIN roles r ON r.id = p.role_id WHERE p.organization_id = ${ACME} AND r.slug = 'owner'`);

describe('role permissions, from the command line', () => {
  it("refuses to change the owner role's, as PUT {t}/roles/{roleId}/permissions does, and writes nothing", async () => {
    const [permissions, roleAudits] = [await ownerPermissions(), await audits('role_permissions')];
    for (const change of [['--revoke', '*'], ['--grant', 'posts.index']]) {
      expect(await gatehouseRun(db.ownerUrl, ['role', 'permissions', 'acme', 'owner', ...change])).toEqual({
        code: 1,
        stdout: '',
        stderr: 'The permissions of the owner role cannot be changed.\n',
      });
    }
    expect(await ownerPermissions()).toEqual(permissions);
    expect(await audits('role_permissions')).toEqual(roleAudits);
  });
});

describe('member add and member permissions, from the command line', () => {
  it('audit the membership created and changed, with no user', async () => {
    const [ids] = await sql<{ id: number; role_id: number }>(`SELECT (SELECT id FROM users WHERE email = 'owner@globex.test') AS id, (SELECT id FROM roles WHERE slug = 'owner') AS role_id`);
    const { id, role_id: roleId } = ids!;
    expect(await gatehouseRun(db.ownerUrl, ['member', 'add', '--org', 'acme', '--email', 'owner@globex.test', '--role', 'owner'])).toMatchObject({ code: 0 });
    expect(await gatehouseRun(db.ownerUrl, ['member', 'permissions', 'acme', 'owner@globex.test', '--deny', 'posts.index'])).toMatchObject({ code: 0 });
    const facts = { role_id: roleId, granted_permissions: [] };
    expect((await audits('memberships')).filter((row) => row.record_id === String(id))).toEqual([
      { record_id: String(id), action: 'created', old_values: null, new_values: { ...facts, denied_permissions: [] }, user_id: null },
      { record_id: String(id), action: 'updated', old_values: { denied_permissions: [] }, new_values: { denied_permissions: ['posts.index'] }, user_id: null },
    ]);
  });
});

describe('member remove, from the command line', () => {
  it('ends the membership and audits it as the HTTP route does, with no user', async () => {
    const [before] = await sql<{ user_id: number; role_id: number; granted_permissions: string[]; denied_permissions: string[] }>(
      `SELECT m.user_id, m.role_id, m.granted_permissions, m.denied_permissions FROM user_roles m JOIN users u ON u.id = m.user_id
        JOIN organizations o ON o.id = m.organization_id WHERE o.slug = 'acme' AND u.email = 'editor@acme.test'`,
    );
    expect(before).toBeDefined();
    const { user_id: userId, ...facts } = before!;

    expect(await gatehouseRun(db.ownerUrl, ['member', 'remove', '--org', 'acme', '--email', 'editor@acme.test'])).toEqual({
      code: 0,
      stdout: 'Removed editor@acme.test from acme (route group tenant).\n',
      stderr: '',
    });

    expect(await sql(`SELECT 1 FROM user_roles WHERE user_id = $1 AND organization_id = (SELECT id FROM organizations WHERE slug = 'acme')`, [userId])).toEqual([]);
    expect(
      await sql(
        `SELECT model, record_id, action, old_values, new_values, user_id FROM audit_logs
          WHERE organization_id = (SELECT id FROM organizations WHERE slug = 'acme') AND model = 'memberships' AND record_id = $1 ORDER BY id`,
        [String(userId)],
      ),
    ).toEqual([{ model: 'memberships', record_id: String(userId), action: 'deleted', old_values: facts, new_values: null, user_id: null }]);
  });
});
