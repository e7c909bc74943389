import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMigrations } from '../../server/db/migrations.js';
import { runCli } from '../support/cli.js';
import { createEmptyDatabase, type TestDatabase } from '../support/database.js';
import { demoPostTitles } from '../support/demo.js';
import { queryOnce } from '../support/query.js';
import { dropRoles, uniqueRoleName } from '../support/roles.js';

// `npx gatehouse ...` as an operator runs it, pointed at a database of its own by DATABASE_URL.
// The tests build on each other: migrate, seed, then grant on the seeded data.
let testDb: TestDatabase;
const analystRole = uniqueRoleName('analyst');
const serviceRole = uniqueRoleName('service');

beforeAll(async () => {
  testDb = await createEmptyDatabase();
});

afterAll(async () => {
  await testDb.drop();
  await dropRoles(analystRole, serviceRole);
});

const gatehouse = (...args: string[]) => runCli(args, testDb.ownerUrl);

async function readAs(url: string, text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows.map((row: Record<string, unknown>) => Object.values(row)[0]);
  } finally {
    await client.end();
  }
}

describe('gatehouse migrate', () => {
  it('applies the core migrations to an empty database, no demo table, then reports it up to date', async () => {
    const names = (await readMigrations()).map((migration) => migration.name);
    expect(await gatehouse('migrate')).toMatchObject({ code: 0, stdout: `Applied ${names.join(', ')}\n` });
    expect(await gatehouse('migrate')).toMatchObject({ code: 0, stdout: 'Database is up to date.\n' });
    expect(await queryOnce(testDb.ownerUrl, "SELECT to_regclass('posts') AS posts, to_regclass('comments') AS comments")).toEqual([{ posts: null, comments: null }]);
  });

  it('applies an application folder with --dir, and names a migration that fails', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gatehouse-cli-'));
    try {
      await writeFile(join(dir, '001_notes.sql'), 'CREATE TABLE notes (body text);');
      expect(await gatehouse('migrate', '--dir', dir)).toMatchObject({ code: 0, stdout: 'Applied app/001_notes.sql\n' });
      await writeFile(join(dir, '002_typo.sql'), 'CREAT TABLE typo (id int);');
      expect(await gatehouse('migrate', '--dir', dir)).toEqual({
        code: 1,
        stdout: '',
        stderr: 'Migration app/002_typo.sql failed and was rolled back: syntax error at or near "CREAT"\n',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('gatehouse seed --demo', () => {
  it('seeds the demo organizations once', async () => {
    expect(await gatehouse('seed', '--demo')).toMatchObject({ code: 0, stdout: 'Seeded the demo data.\n' });
    expect(await gatehouse('seed', '--demo')).toMatchObject({ code: 0, stdout: 'Demo data already present.\n' });
    const slugs = await queryOnce<{ slug: string }>(testDb.ownerUrl, 'SELECT slug FROM organizations ORDER BY slug');
    expect(slugs).toEqual([{ slug: 'acme' }, { slug: 'globex' }]);
  });
});

describe('gatehouse analyst', () => {
  it('grant --create makes a login that reads the granted organization with the password printed once', async () => {
    const run = await gatehouse('analyst', 'grant', analystRole, 'acme', '--create');
    expect(run.code).toBe(0);
    const url = /Connect with: psql "(.+)"/.exec(run.stdout)?.[1] ?? '';
    const password = /Password \(shown once\): (\S+)/.exec(run.stdout)?.[1] ?? '';
    expect(new URL(url)).toMatchObject({ username: analystRole, password });
    expect(await readAs(url, 'SELECT title FROM posts ORDER BY title')).toEqual(demoPostTitles('acme'));

    expect(await gatehouse('analyst', 'grant', analystRole, 'globex')).toMatchObject({ code: 0, stdout: expect.stringContaining(`${analystRole} can read organization globex.`) });
    expect(await readAs(url, 'SELECT slug FROM organizations ORDER BY slug')).toEqual(['acme', 'globex']);

    expect(await gatehouse('analyst', 'revoke', analystRole, 'globex')).toMatchObject({ code: 0, stdout: `Revoked ${analystRole}'s access to globex.\n` });
    expect(await readAs(url, 'SELECT slug FROM organizations')).toEqual(['acme']);
  });

  it('explains what it refuses: exit 1 for the database, 2 for the command line', async () => {
    expect(await gatehouse('analyst', 'grant', analystRole, 'initech')).toMatchObject({ code: 1, stderr: 'No organization has the slug "initech".\n' });
    const usage = await gatehouse('analyst', 'grant', analystRole, 'acme', '--password', 'without-create-123');
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: gatehouse analyst grant <role> <org-slug> [--create [--password <password>]]') });
  });
});

describe('gatehouse app-login', () => {
  it('creates a service login and prints its connection string', async () => {
    const run = await gatehouse('app-login', serviceRole);
    expect(run.code).toBe(0);
    const url = /Service connection string: (\S+)/.exec(run.stdout)?.[1] ?? '';
    expect(await readAs(url, "SELECT pg_has_role('gatehouse_app', 'MEMBER')")).toEqual([true]);
  });
});
