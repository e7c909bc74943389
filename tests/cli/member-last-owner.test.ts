import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { gatehouseRun } from '../support/gatehouse-in-process.js';
import { queryOnce } from '../support/query.js';

// Issue 28, findings 1 and 2, from the command line: the operator's `member permissions` and
// `member remove` keep an owner who holds every permission of the owner role, as the HTTP API
// does. On a copy of the demo, where owner@acme.test is acme's only owner.
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(() => db.drop());

const gatehouse = (...args: string[]) => gatehouseRun(db.ownerUrl, args);

const owners = () =>
  queryOnce<{ email: string; denied_permissions: string[] }>(
    db.ownerUrl,
    `SELECT u.email, m.denied_permissions FROM user_roles m JOIN users u ON u.id = m.user_id JOIN roles r ON r.id = m.role_id
      JOIN organizations o ON o.id = m.organization_id WHERE o.slug = 'acme' AND r.slug = 'owner' ORDER BY u.email`,
  );

const refused = (email: string, keeps: boolean) => ({
  code: 1,
  stdout: '',
  stderr: `${email} is the last owner of acme${keeps ? ' and keeps every permission of the owner role' : ''}: make another member owner first.\n`,
});

describe('the last owner, from the command line', () => {
  it('is neither denied a permission of the owner role nor removed; a second owner lifts the rule for the first alone', async () => {
    for (const denied of ['*', 'memberships.update', 'posts.*']) {
      expect(await gatehouse('member', 'permissions', '--org', 'acme', '--email', 'owner@acme.test', '--deny', denied), denied).toEqual(refused('owner@acme.test', true));
    }
    expect(await gatehouse('member', 'remove', '--org', 'acme', '--email', 'owner@acme.test')).toEqual(refused('owner@acme.test', false));
    expect(await owners()).toEqual([{ email: 'owner@acme.test', denied_permissions: [] }]);

    // With a second full owner, the first may be switched off; the second is then the last one.
    expect(await gatehouse('member', 'add', '--org', 'acme', '--email', 'owner@globex.test', '--role', 'owner')).toMatchObject({ code: 0 });
    expect(await gatehouse('member', 'permissions', 'acme', 'owner@acme.test', '--deny', '*')).toMatchObject({ code: 0 });
    expect(await gatehouse('member', 'remove', '--org', 'acme', '--email', 'owner@globex.test')).toEqual(refused('owner@globex.test', false));
    expect(await gatehouse('member', 'permissions', 'acme', 'owner@globex.test', '--deny', 'posts.destroy')).toEqual(refused('owner@globex.test', true));
    expect(await owners()).toEqual([
      { email: 'owner@acme.test', denied_permissions: ['*'] },
      { email: 'owner@globex.test', denied_permissions: [] },
    ]);
  });
});
