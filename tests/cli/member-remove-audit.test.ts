import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { gatehouseRun } from '../support/gatehouse-in-process.js';
import { queryOnce } from '../support/query.js';

// Issue 28: the operator's `member remove` leaves the audit row `DELETE {t}/members/{id}` leaves,
// with no user (the CLI's actor). On a copy of the demo, where editor@acme.test is a member of acme.
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(() => db.drop());

const sql = <Row extends Record<string, unknown>>(text: string, values: unknown[] = []) => queryOnce<Row>(db.ownerUrl, text, values);

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
