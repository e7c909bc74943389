import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createProgram } from '../../server/cli/program.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

// `gatehouse policy test` in-process, as CI runs it: the demo's own policy files, and files that
// fail or are malformed. The demo's list tests read a copy of the demo database; nothing starts a server.
let folder: string;
let database: TestDatabase;
let printed: string[];

async function gatehouse(...args: string[]): Promise<{ lines: string[]; error: Error | null }> {
  printed = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
  vi.stubEnv('DATABASE_URL', database.ownerUrl);
  try {
    await createProgram().parseAsync(['policy', 'test', ...args], { from: 'user' });
    return { lines: printed, error: null };
  } catch (error) {
    return { lines: printed, error: error as Error };
  } finally {
    log.mockRestore();
    vi.unstubAllEnvs();
  }
}

const file = async (name: string, text: string) => {
  const path = join(folder, name);
  await writeFile(path, text);
  return path;
};

const VIEWER_FILE = `principals:
  viewer: { role: viewer, granted: [posts.store] }
resources:
  post: { model: posts, attributes: { id: 1 } }
tests:
  - principal: viewer
    resource: post
    actions: { index: allow, store: allow, forceDelete: deny }
    read_fields: { visible: [title, internal_notes] }
    write_fields: { allowed: [title], refused: [status] }
    includes: { comments: allow, author: allow }
`;

beforeAll(async () => {
  [folder, database] = await Promise.all([mkdtemp(join(tmpdir(), 'gatehouse-policy-test-')), createTestDatabase()]);
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
  await database.drop();
});

afterEach(() => vi.restoreAllMocks());

describe('gatehouse policy test', () => {
  it('passes the demo’s DESIGN.md 6 table, found through the config’s policyTests folder', async () => {
    const { lines, error } = await gatehouse();
    expect(error).toBeNull();
    expect(lines).toHaveLength(1);
    const [, passed] = /^(\d+) passed, 0 failed$/.exec(lines[0]!) ?? [];
    expect(Number(passed)).toBeGreaterThan(200);
  });

  it('prints one line per failed expectation with its explanation, then fails the run', async () => {
    const path = await file('viewer.policy.yaml', VIEWER_FILE);
    const { lines, error } = await gatehouse(path);
    expect(error?.message).toBe('5 passed, 4 failed');
    expect(lines).toEqual([
      `FAIL ${path}:8 viewer post: store expected allow, got deny: posts.store is held (posts.store granted to the user); PostPolicy.create refuses`,
      `FAIL ${path}:9 viewer post: read internal_notes expected visible, got hidden: PostPolicy.hiddenAttributesForShow strips internal_notes`,
      `FAIL ${path}:10 viewer post: write status on create expected refused, got allowed: PostPolicy.permittedAttributesForCreate lists status`,
      `FAIL ${path}:11 viewer post: include author expected allow, got deny: the hop author needs users.index: users.index is not held (role viewer: posts.index, posts.show, comments.index; granted: posts.store)`,
      '5 passed, 4 failed',
    ]);
  });

  it('takes role permissions from the file’s own roles instead of the config’s, custom actions too', async () => {
    const inline = VIEWER_FILE.replace('principals:', 'roles:\n  viewer: [posts.index, posts.show, comments.index, users.index, posts.publish]\nprincipals:').replace(
      'forceDelete: deny',
      'forceDelete: deny, publish: allow',
    );
    const path = await file('roles.policy.yaml', inline);
    const { lines } = await gatehouse(path);
    expect(lines).not.toContainEqual(expect.stringContaining('include author'));
    expect(lines).not.toContainEqual(expect.stringContaining('publish'));
    expect(lines.at(-1)).toBe('7 passed, 3 failed');
  });

  it('writes JUnit XML with a failure per failed expectation', async () => {
    const path = await file('junit.policy.yaml', VIEWER_FILE);
    const output = join(folder, 'reports', 'report.xml');
    const { error } = await gatehouse(path, '--reporter', 'junit', '--output', output);
    expect(error?.message).toBe('5 passed, 4 failed');
    const xml = await readFile(output, 'utf8');
    expect(xml).toContain('<testsuites name="gatehouse policy test" tests="9" failures="4">');
    expect(xml).toContain('<testcase name="viewer post: index" classname=');
    expect(xml).toMatch(/<testcase name="viewer post: store" [^>]*>\s*<failure message="expected allow, got deny" type="policy">/);
  });

  it.each([
    ['a misspelt action', VIEWER_FILE.replace('forceDelete: deny', 'forceDelet: deny'), 8, 'tests[0].actions.forceDelet: no action forceDelet: not a standard action'],
    ['a value outside the format', VIEWER_FILE.replace('index: allow', 'index: maybe'), 8, 'tests[0].actions.index: must be allow or deny'],
    ['an unknown key', VIEWER_FILE.replace('    resource: post\n', '    resource: post\n    resorce: post\n'), 8, 'tests[0].resorce: is not a key of this file format'],
    ['a missing key', VIEWER_FILE.replace('    resource: post\n', ''), 6, 'tests[0].resource: is required'],
    ['an unknown role', VIEWER_FILE.replace('role: viewer', 'role: reader'), 2, 'principals.viewer.role: no role reader in the config’s organizationRoles'],
    ['a malformed permission', VIEWER_FILE.replace('[posts.store]', '[posts.store, posts]'), 2, 'The principals.viewer.granted field holds an invalid permission: "posts" (it names no action;'],
    ['a condition on a wildcard', VIEWER_FILE.replace('[posts.store]', '[posts.*:own]'), 2, 'The principals.viewer.granted field holds an invalid permission: "posts.*:own" (a condition is only allowed on {slug}.{action}, not on a wildcard).'],
    ['an undeclared condition', VIEWER_FILE.replace('[posts.store]', '[posts.store:onw]'), 2, 'principals.viewer.granted[0]: The permission posts.store:onw names the condition onw, which the posts policy does not declare'],
    ['an unknown model', VIEWER_FILE.replace('model: posts', 'model: post'), 4, 'resources.post.model: no registered model post'],
    ['an unknown field', VIEWER_FILE.replace('[title, internal_notes]', '[title, notes]'), 9, 'tests[0].read_fields.visible[1]: notes is not an attribute of model posts'],
    ['an unknown relation', VIEWER_FILE.replace('author: allow', 'writer: allow'), 11, 'tests[0].includes.writer: Unknown include: writer.'],
    ['a model the group does not serve', VIEWER_FILE.replace('    resource: post\n', '    resource: post\n    route_group: admin\n'), 7, 'tests[0].resource: model posts is not served in route group admin'],
    ['broken YAML', 'tests: [\n', 1, 'Flow sequence in block collection must be sufficiently indented and end with a ]'],
    ['an empty file', '', 1, 'a policy test file is a mapping of principals, resources and tests'],
  ])('names the file, the line and the key of %s', async (_case, text, line, problem) => {
    const path = await file('broken.policy.yaml', text);
    const { lines, error } = await gatehouse(path);
    expect(error?.message).toBe('0 passed, 1 failed');
    expect(lines).toEqual([expect.stringContaining(`FAIL ${path}:${line}: ${problem}`), '0 passed, 1 failed']);
  });

  describe("another service's resources, declared in the config's services", () => {
    const INVOICES_FILE = `principals:
  viewer: { role: viewer, granted: [invoices.index] }
  approver: { role: viewer, granted: [invoices.*], denied: [invoices.show] }
resources:
  invoice: { model: invoices }
tests:
  - principal: viewer
    resource: invoice
    actions: { index: allow, approve: allow }
  - principal: approver
    resource: invoice
    actions: { approve: allow, show: allow }
`;
    let config: string;
    beforeAll(async () => {
      const demo = new URL('../../policies/gatehouse.config.ts', import.meta.url).href;
      config = await file('billing.config.ts', `import demo from '${demo}';\nexport default { ...demo, services: { billing: { resources: { invoices: ['index', 'show', 'approve'] } } } };\n`);
    });

    it('decides their actions by the permission alone, as authorize does', async () => {
      const path = await file('invoices.policy.yaml', INVOICES_FILE);
      const { lines, error } = await gatehouse(path, '--config', config);
      expect(error?.message).toBe('2 passed, 2 failed');
      expect(lines).toEqual([
        `FAIL ${path}:9 viewer invoice: approve expected allow, got deny: invoices.approve is not held (role viewer: posts.index, posts.show, comments.index; granted: invoices.index)`,
        `FAIL ${path}:12 approver invoice: show expected allow, got deny: invoices.show is denied to this user (invoices.show)`,
        '2 passed, 2 failed',
      ]);
    });

    it.each([
      ['an action the resource does not register', INVOICES_FILE.replace('approve: allow }\n  - principal: approver', 'refund: allow }\n  - principal: approver'), 9, 'tests[0].actions.refund: no action refund: invoices of billing registers index, show, approve'],
      ['fields of a resource', INVOICES_FILE.replace('    actions: { index: allow, approve: allow }\n', '    actions: { index: allow }\n    read_fields: { visible: [total] }\n'), 10, 'tests[0].read_fields: invoices is a resource of billing: its fields and includes are checked there'],
    ])('names the file, the line and the key of %s', async (_case, text, line, problem) => {
      const path = await file('invalid-invoices.policy.yaml', text);
      const { lines, error } = await gatehouse(path, '--config', config);
      expect(error?.message).toBe('0 passed, 1 failed');
      expect(lines).toEqual([`FAIL ${path}:${line}: ${problem}`, '0 passed, 1 failed']);
    });

    it('knows no such resource without the config that declares it', async () => {
      const path = await file('undeclared.policy.yaml', INVOICES_FILE);
      expect((await gatehouse(path)).lines).toEqual([`FAIL ${path}:5: resources.invoice.model: no registered model invoices`, '0 passed, 1 failed']);
    });
  });

  it('refuses a folder without policy files', async () => {
    const { error } = await gatehouse(join(folder, 'nothing-here'));
    expect(error?.message).toMatch(/No \*\.policy\.yaml files in .*nothing-here \(it does not exist\)/);
  });
});
