import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../../harness/cli.js';
import { openDatabaseTarget } from '../../../../server/cli/database-target.js';
import { readEnvironment } from '../../../../server/cli/environment.js';
import { runningPostmasterPort } from '../../../../server/db/cluster/running-postmaster.js';
import { queryOnce } from '../../../support/query.js';
import { clusterFolder } from '../../../support/cluster-folder.js';

// A folder's embedded cluster is shared by every process that uses it without DATABASE_URL: a
// `gatehouse start` that joins the cluster a short-lived command (`gatehouse migrate`, `org
// create`) started keeps its database when that command ends. The command is a process of its
// own that opens the database as every command does, then ends as they do (its exit hooks run);
// the server's side is opened here, as `gatehouse start` opens it.
let home: string;

beforeAll(async () => {
  home = await clusterFolder('shared');
});

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

/** A command that opens the folder's database, says so, and ends once its standard input closes. */
async function startAdminCommand() {
  const script = `
    const { withDatabaseTarget } = await import(${JSON.stringify(join(ROOT, 'server', 'cli', 'database-target.ts'))});
    await withDatabaseTarget(async () => {
      console.log('opened');
      await new Promise((resolve) => process.stdin.on('data', () => {}).once('end', resolve));
    });`;
  const child = spawn(process.execPath, ['--conditions=gatehouse-source', '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, GATEHOUSE_HOME: home, DATABASE_URL: '' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('opened') && resolve());
    void exited.then((code) => reject(new Error(`the command exited with ${code} before it opened the database`)));
  });
  return { end: () => child.stdin.end(), exited };
}

describe('the embedded cluster shared between processes', { timeout: 120_000 }, () => {
  it('outlives the command that started it while a server uses it; the last to leave stops it', async () => {
    const command = await startAdminCommand();
    const server = await openDatabaseTarget(readEnvironment({ GATEHOUSE_HOME: home }));

    command.end();
    expect(await command.exited).toBe(0);
    expect(await queryOnce(server.ownerUrl, 'SELECT current_database() AS name')).toEqual([{ name: 'gatehouse' }]);

    await server.stop();
    expect(await runningPostmasterPort(join(home, 'pg'))).toBeNull();
  });
});
