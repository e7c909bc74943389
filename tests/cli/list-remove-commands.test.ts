import { CommanderError } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createProgram } from '../../server/cli/program.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { queryOnce } from '../support/query.js';
import { dropRoles, uniqueRoleName } from '../support/roles.js';

// The list and remove commands, and the one flag style, run in-process through the commander
// program on a copy of the demo database (DATABASE_URL); a test that changes it has its own copy.
let db: TestDatabase;
const analyst = uniqueRoleName('analyst');
const leaving = uniqueRoleName('analyst');
let printed: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  vi.stubEnv('DATABASE_URL', db.ownerUrl);
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
  // commander writes its own usage errors; the thrown CommanderError carries the message.
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterAll(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await db.drop();
  await dropRoles(analyst, leaving);
});

/** Runs `test` with DATABASE_URL naming a fresh copy of the demo database, dropped afterwards. */
async function onOwnDatabase(test: (own: TestDatabase) => Promise<void>): Promise<void> {
  const own = await createTestDatabase();
  vi.stubEnv('DATABASE_URL', own.ownerUrl);
  try {
    await test(own);
  } finally {
    vi.stubEnv('DATABASE_URL', db.ownerUrl);
    await own.drop();
  }
}

/** Runs `gatehouse ...args`; resolves with what it printed, rejects with what it threw. */
async function gatehouse(...args: string[]): Promise<string> {
  printed = [];
  await createProgram().parseAsync(args, { from: 'user' });
  return printed.join('\n');
}

const usageError = (message: string) => expect.objectContaining({ constructor: CommanderError, message: expect.stringContaining(message) });

describe('list', () => {
  it('lists users, organizations and members', async () => {
    expect(await gatehouse('user', 'list')).toContain('owner@acme.test (');
    const organizations = await gatehouse('org', 'list');
    expect(organizations).toMatch(/^acme \(.+, id \d+\)$/m);
    expect(organizations).toMatch(/^globex \(.+, id \d+\)$/m);
    const members = await gatehouse('member', 'list', '--org', 'acme');
    expect(members).toContain('viewer@acme.test in acme: role viewer');
    expect(members).not.toContain('globex.test');
  });

  it('lists analysts after a grant made with the flags', () =>
    onOwnDatabase(async () => {
      expect(await gatehouse('analyst', 'list')).toBe('No analysts.');
      await gatehouse('analyst', 'grant', '--role', analyst, '--org', 'acme', '--create');
      await gatehouse('analyst', 'grant', analyst, 'globex');
      expect(await gatehouse('analyst', 'list')).toBe(`${analyst}: acme, globex`);
    }));
});

describe('remove', () => {
  it('ends a membership, keeps the user, and never removes the last owner', () =>
    onOwnDatabase(async () => {
      expect(await gatehouse('member', 'remove', '--org', 'acme', '--email', 'viewer@acme.test')).toBe('Removed viewer@acme.test from acme (route group tenant).');
      expect(await gatehouse('member', 'list', '--org', 'acme')).not.toContain('viewer@acme.test');
      expect(await gatehouse('user', 'list')).toContain('viewer@acme.test');
      await expect(gatehouse('member', 'remove', '--org', 'acme', '--email', 'owner@acme.test')).rejects.toThrow('owner@acme.test is the last owner of acme: make another member owner first.');
    }));

  it('deletes a user with their memberships', () =>
    onOwnDatabase(async (own) => {
      expect(await gatehouse('user', 'remove', '--email', 'editor@acme.test')).toMatch(/^Removed user editor@acme\.test \(id \d+\)\.$/);
      expect(await gatehouse('user', 'list')).not.toContain('editor@acme.test');
      expect(await queryOnce(own.ownerUrl, "SELECT 1 FROM user_roles r JOIN users u ON u.id = r.user_id WHERE u.email = 'editor@acme.test'")).toEqual([]);
    }));

  it("deletes an organization and what it owns, and takes an analyst's access away", () =>
    onOwnDatabase(async () => {
      await gatehouse('analyst', 'grant', '--role', leaving, '--org', 'acme', '--create');
      await gatehouse('analyst', 'grant', leaving, 'globex');
      expect(await gatehouse('org', 'remove', '--org', 'globex')).toContain('Removed organization globex');
      expect(await gatehouse('org', 'list')).not.toContain('globex');
      expect(await gatehouse('analyst', 'list')).toBe(`${leaving}: acme`);
      expect(await gatehouse('analyst', 'remove', '--role', leaving)).toBe(`${leaving} can no longer read any organization of this database, nor connect to it.`);
      expect(await gatehouse('analyst', 'list')).toBe('No analysts.');
    }));
});

describe('one flag style, the positional forms as aliases', () => {
  it('reads member permissions with --org and --email as with the positional arguments', async () => {
    const flags = await gatehouse('member', 'permissions', '--org', 'acme', '--email', 'owner@acme.test');
    expect(flags).toMatch(/^owner@acme\.test in acme: role owner;/);
    expect(await gatehouse('member', 'permissions', 'acme', 'owner@acme.test')).toBe(flags);
    expect(await gatehouse('role', 'permissions', '--org', 'acme', '--role', 'owner')).toBe(await gatehouse('role', 'permissions', 'acme', 'owner'));
  });
});

describe('bad input', () => {
  it.each([
    [['member', 'list'], "required option '--org <slug>' not specified"],
    [['member', 'remove', '--org', 'acme'], "required option '--email <email>' not specified"],
    [['member', 'permissions', '--org', 'acme'], "required option '--email <email>' not specified"],
    [['member', 'permissions', 'acme', 'owner@acme.test', '--org', 'globex'], '--org <slug> globex and the argument acme disagree'],
    [['user', 'remove'], "required option '--email <email>' not specified"],
    [['org', 'remove'], "required option '--org <slug>' not specified"],
    [['analyst', 'revoke', '--org', 'acme'], "required option '--role <role>' not specified"],
    [['role', 'permissions', 'acme'], "required option '--role <role-slug>' not specified"],
  ])('gatehouse %j is a usage error', async (args, message) => {
    await expect(gatehouse(...args)).rejects.toEqual(usageError(message));
  });

  it.each([
    [['member', 'list', '--org', 'nowhere'], 'No organization has the slug "nowhere".'],
    [['member', 'remove', '--org', 'acme', '--email', 'nobody@acme.test'], 'No user has the email "nobody@acme.test".'],
    [['member', 'remove', '--org', 'acme', '--email', 'owner@globex.test'], 'owner@globex.test is not a member of acme (route group tenant).'],
    [['user', 'remove', '--email', 'nobody@acme.test'], 'No user has the email "nobody@acme.test".'],
    [['org', 'remove', '--org', 'nowhere'], 'No organization has the slug "nowhere".'],
    [['analyst', 'remove', '--role', 'Not A Role'], 'Refusing to use role "Not A Role"'],
  ])('gatehouse %j says what is wrong and changes nothing', async (args, message) => {
    const before = await queryOnce(db.ownerUrl, 'SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM user_roles) AS members, (SELECT count(*) FROM organizations) AS organizations');
    await expect(gatehouse(...args)).rejects.toThrow(message);
    expect(await queryOnce(db.ownerUrl, 'SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM user_roles) AS members, (SELECT count(*) FROM organizations) AS organizations')).toEqual(before);
  });
});
