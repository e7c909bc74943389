import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openDatabaseTarget, type DatabaseTarget } from '../../server/cli/database-target.js';
import { readEnvironment } from '../../server/cli/environment.js';
import { serviceLoginUrl } from '../../server/cli/service-login.js';
import { assertMigrated } from '../../server/db/migrations/migration-status.js';
import { migrate } from '../../server/db/migrations/migrations.js';
import { databaseUrl } from '../../harness/cluster.js';
import { queryOnce } from '../support/query.js';
import { clusterFolder } from '../support/cluster-folder.js';

// One project folder (.gatehouse/) used with its embedded cluster, then with DATABASE_URL (a
// database of the same name on another cluster), then with the embedded cluster again.
let home: string;
let embedded: DatabaseTarget | undefined;
const external = () => databaseUrl(inject('clusterUrl'), 'gatehouse');
const embeddedTarget = () => openDatabaseTarget(readEnvironment({ GATEHOUSE_HOME: home }));
const port = (url: string) => new URL(url).port;

async function connects(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

beforeAll(async () => {
  home = await clusterFolder('project');
  embedded = await embeddedTarget();
});

afterAll(async () => {
  await embedded?.stop();
  await queryOnce(inject('clusterUrl'), 'DROP DATABASE IF EXISTS gatehouse WITH (FORCE)');
  await queryOnce(inject('clusterUrl'), 'DROP ROLE IF EXISTS svc_gatehouse');
  await rm(home, { recursive: true, force: true });
});

describe('the embedded cluster of a project folder', { timeout: 120_000 }, () => {
  // A cluster of its own: the folder's cluster may be migrated already, by the tests around it.
  it('says a fresh cluster is not migrated, rather than that a role is missing', async () => {
    const freshHome = await clusterFolder('fresh');
    const fresh = await openDatabaseTarget(readEnvironment({ GATEHOUSE_HOME: freshHome }));
    try {
      await expect(assertMigrated(fresh.ownerUrl)).rejects.toThrow(/^database not migrated: run `npx gatehouse migrate`$/);
    } finally {
      await fresh.stop();
      await rm(freshHome, { recursive: true, force: true });
    }
  });

  it('keeps a service login password per cluster and database across DATABASE_URL and back', async () => {
    await migrate(embedded!.ownerUrl);
    const first = await serviceLoginUrl(embedded!.ownerUrl, home);
    expect(await connects(first)).toBe(true);

    await queryOnce(inject('clusterUrl'), 'CREATE DATABASE gatehouse');
    await migrate(external());
    expect(await connects(await serviceLoginUrl(external(), home))).toBe(true);

    const again = await serviceLoginUrl(embedded!.ownerUrl, home);
    expect(again).toBe(first);
    expect(await connects(again)).toBe(true);
  });

  it('gives the login a new password when the database refuses the stored one', async () => {
    await migrate(embedded!.ownerUrl);
    expect(await connects(await serviceLoginUrl(embedded!.ownerUrl, home))).toBe(true);
    await queryOnce(embedded!.ownerUrl, "ALTER ROLE svc_gatehouse PASSWORD 'changed behind its back'");
    const repaired = await serviceLoginUrl(embedded!.ownerUrl, home);
    expect(await connects(repaired)).toBe(true);
  });

  it('keeps its port and its data across restarts, stored under .gatehouse/', async () => {
    await migrate(embedded!.ownerUrl);
    await queryOnce(embedded!.ownerUrl, "INSERT INTO organizations (name, slug) VALUES ('Kept', 'kept')");
    const before = port(embedded!.ownerUrl);
    expect((await readFile(join(home, 'pg.port'), 'utf8')).trim()).toBe(before);
    await embedded!.stop();
    embedded = undefined;
    embedded = await embeddedTarget();
    expect(port(embedded.ownerUrl)).toBe(before);
    expect(await queryOnce(embedded.ownerUrl, "SELECT name FROM organizations WHERE slug = 'kept'")).toEqual([{ name: 'Kept' }]);
  });
});
