import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangedMigrationError } from '../../server/db/changed-migration-error.js';
import { MIGRATIONS_DIR, migrate, readMigrations } from '../../server/db/migrations.js';
import { createEmptyDatabase, type TestDatabase } from '../support/database.js';
import { queryOnce } from '../support/query.js';

let testDb: TestDatabase;
let dir: string;

beforeEach(async () => {
  testDb = await createEmptyDatabase();
  dir = await mkdtemp(join(tmpdir(), 'gatehouse-migrations-'));
});

afterEach(async () => {
  await testDb.drop();
  await rm(dir, { recursive: true, force: true });
});

const write = (name: string, text: string) => writeFile(join(dir, name), text);
const recorded = () => queryOnce<{ name: string; checksum: string }>(testDb.ownerUrl, 'SELECT name, checksum FROM gatehouse_migrations ORDER BY name');
const notes = async () => (await queryOnce<{ body: string }>(testDb.ownerUrl, 'SELECT body FROM notes ORDER BY body')).map((row) => row.body);

describe('migrate', () => {
  it('applies pending migrations in name order and records each with its checksum', async () => {
    await write('002_fill.sql', "INSERT INTO notes (body) VALUES ('second');");
    await write('001_create.sql', 'CREATE TABLE notes (body text);');
    await write('README.md', 'not a migration');

    expect(await migrate(testDb.ownerUrl, dir)).toEqual(['001_create.sql', '002_fill.sql']);
    expect(await notes()).toEqual(['second']);
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(await recorded()).toEqual([
      { name: '001_create.sql', checksum: sha('CREATE TABLE notes (body text);') },
      { name: '002_fill.sql', checksum: sha("INSERT INTO notes (body) VALUES ('second');") },
    ]);
  });

  it('is idempotent: a second run applies nothing, a later file only itself', async () => {
    await write('001_create.sql', 'CREATE TABLE notes (body text);');
    await write('002_fill.sql', "INSERT INTO notes (body) VALUES ('once');");
    await migrate(testDb.ownerUrl, dir);

    expect(await migrate(testDb.ownerUrl, dir)).toEqual([]);
    await write('003_more.sql', "INSERT INTO notes (body) VALUES ('later');");
    expect(await migrate(testDb.ownerUrl, dir)).toEqual(['003_more.sql']);
    expect(await notes()).toEqual(['later', 'once']);
  });

  it('refuses to run when an applied migration was changed, naming it, and applies nothing', async () => {
    await write('001_create.sql', 'CREATE TABLE notes (body text);');
    await migrate(testDb.ownerUrl, dir);
    await write('001_create.sql', 'CREATE TABLE notes (body text, extra int);');
    await write('002_fill.sql', "INSERT INTO notes (body) VALUES ('never');");

    const run = migrate(testDb.ownerUrl, dir);
    await expect(run).rejects.toBeInstanceOf(ChangedMigrationError);
    await expect(run).rejects.toThrow('Migration 001_create.sql was changed after it was applied; add a new migration instead.');
    expect(await notes()).toEqual([]);
    expect((await recorded()).map((row) => row.name)).toEqual(['001_create.sql']);
  });

  it('rolls a failing migration back entirely and does not record it', async () => {
    await write('001_create.sql', 'CREATE TABLE notes (body text);');
    await write('002_broken.sql', "INSERT INTO notes (body) VALUES ('half'); SELECT 1 / 0;");

    await expect(migrate(testDb.ownerUrl, dir)).rejects.toThrow(/division by zero/);
    expect((await recorded()).map((row) => row.name)).toEqual(['001_create.sql']);
    expect(await notes()).toEqual([]);

    await write('002_broken.sql', "INSERT INTO notes (body) VALUES ('fixed');");
    expect(await migrate(testDb.ownerUrl, dir)).toEqual(['002_broken.sql']);
    expect(await notes()).toEqual(['fixed']);
  });

  it('applies each migration once when two processes migrate at the same time', async () => {
    await write('001_create.sql', 'CREATE TABLE notes (body text);');
    await write('002_fill.sql', "INSERT INTO notes (body) VALUES ('one');");

    const runs = await Promise.all([migrate(testDb.ownerUrl, dir), migrate(testDb.ownerUrl, dir)]);
    expect(runs.flat().sort()).toEqual(['001_create.sql', '002_fill.sql']);
    expect(await notes()).toEqual(['one']);
  });
});

describe('the shipped migrations', () => {
  it('include every .sql file of sql/, so a misnamed one cannot be skipped silently', async () => {
    const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
    expect((await readMigrations()).map((migration) => migration.name)).toEqual(files);
  });
});
