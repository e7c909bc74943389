import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../harness/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { queryOnce } from '../support/query.js';

// Each command is a Node process loading the demo's TypeScript config: slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

// In a checkout, with no --config and no config file in the working directory, the permission
// commands check conditions against the demo that `npm start` serves there, on its seeded data.
let db: TestDatabase;
const gatehouse = (...args: string[]) => runCli(args, db.ownerUrl);

const WILDCARD_FAULT = 'a condition is only allowed on {slug}.{action}, not on a wildcard';

beforeAll(async () => {
  db = await createTestDatabase();
});

const configDir = mkdtempSync(join(tmpdir(), 'gatehouse-conditions-'));

afterAll(async () => {
  await Promise.all([db.drop(), rm(configDir, { recursive: true, force: true })]);
});

describe('conditioned permissions through the CLI, without --config in a checkout', () => {
  it("grants and denies the demo's declared conditions, as the server it serves accepts them", async () => {
    const granted = await gatehouse('role', 'permissions', '--org', 'acme', '--role', 'viewer', '--grant', 'posts.update:own');
    expect(granted).toEqual({ code: 0, stdout: 'Permissions of viewer in acme: posts.index, posts.show, comments.index, posts.update:own.\n', stderr: '' });
    const denied = await gatehouse('member', 'permissions', '--org', 'acme', '--email', 'editor@acme.test', '--deny', 'posts.destroy:published');
    expect(denied).toMatchObject({ code: 0, stderr: '' });
    expect(denied.stdout).toContain('denied posts.forceDelete, posts.destroy:published.');
    const created = await gatehouse('role', 'create', 'drafter', '--org', 'acme', '--permissions', 'posts.index:visible posts.update:own');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toContain('Its permissions in acme: posts.index:visible, posts.update:own.');
  });

  it('refuses a condition on a wildcard with the reason, in every command that takes a list', async () => {
    const refusals = await Promise.all([
      gatehouse('role', 'permissions', '--org', 'acme', '--role', 'viewer', '--grant', 'posts.*:own'),
      gatehouse('member', 'permissions', '--org', 'acme', '--email', 'editor@acme.test', '--deny', 'posts.*:own'),
      gatehouse('role', 'create', 'wild', '--org', 'acme', '--permissions', 'posts.*:own'),
      gatehouse('user', 'create', '--email', 'wild@example.test', '--name', 'Wild', '--password', 'wild-pass-1', '--permissions', 'posts.*:own'),
    ]);
    expect(refusals.map((run) => [run.code, run.stdout, run.stderr])).toEqual(
      ['grant', 'deny', 'permissions', 'permissions'].map((flag) => [1, '', `The ${flag} field holds an invalid permission: "posts.*:own" (${WILDCARD_FAULT}).\n`]),
    );
    // The config's starting roles are refused with the same message, naming the role.
    const config = join(configDir, 'wild-roles.config.mjs');
    await writeFile(config, "export default { organizationRoles: { owner: ['*'], author: ['posts.*:own'] } };\n");
    const starting = await gatehouse('org', 'create', '--name', 'Wild', '--slug', 'wild', '--config', config);
    expect(starting).toEqual({ code: 1, stdout: '', stderr: `The organizationRoles.author field holds an invalid permission: "posts.*:own" (${WILDCARD_FAULT}).\n` });
    const unchanged = await queryOnce<{ count: string }>(db.ownerUrl, "SELECT count(*) FROM users WHERE email = 'wild@example.test' UNION ALL SELECT count(*) FROM roles WHERE slug = 'wild' UNION ALL SELECT count(*) FROM organizations WHERE slug = 'wild'");
    expect(unchanged.map((row) => row.count)).toEqual(['0', '0', '0']);
  });

  it('names what is wrong with a condition no policy of the served application declares', async () => {
    const none = await gatehouse('role', 'permissions', '--org', 'acme', '--role', 'viewer', '--grant', 'comments.update:own');
    expect(none).toEqual({ code: 1, stdout: '', stderr: 'The permission comments.update:own names the condition own, which the comments policy does not declare (it declares no record conditions).\n' });
    const other = await gatehouse('member', 'permissions', '--org', 'acme', '--email', 'editor@acme.test', '--grant', 'invoices.approve:own');
    expect(other).toEqual({
      code: 1,
      stdout: '',
      stderr: "The permission invoices.approve:own names the condition own, but invoices is not a model of this application: only a model's policy declares record conditions.\n",
    });
  });
});
