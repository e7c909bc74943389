import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabaseTarget } from '../../server/cli/database-target.js';
import { readEnvironment } from '../../server/cli/environment.js';
import { gatehouseRun } from '../support/gatehouse-in-process.js';
import { isListening } from '../support/processes.js';
import { clusterFolder } from '../support/cluster-folder.js';

// Issue 28, finding 12: an administration command in a folder whose embedded cluster runs (under
// `gatehouse start`) uses that cluster, and leaves it running; with none running it starts the
// folder's own and stops it again. The commands run in this process, without DATABASE_URL.
let home: string;
let dataDir: string;

beforeAll(async () => {
  home = await clusterFolder('admin-cluster');
  dataDir = join(home, 'pg');
  vi.stubEnv('GATEHOUSE_HOME', home);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(home, { recursive: true, force: true });
});

const gatehouse = (...args: string[]) => gatehouseRun('', args);

/** The postmasters serving the folder's data directory (their workers name no `-D`). */
function postmasters(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes(`-D ${dataDir} `);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const clusterPort = () => Number(readFileSync(`${dataDir}.port`, 'utf8'));

describe('an administration command and the folder’s embedded cluster', { timeout: 120_000 }, () => {
  it('starts and stops a cluster of its own when none runs, and uses the running one otherwise', async () => {
    expect(await gatehouse('migrate')).toMatchObject({ code: 0, stderr: '' });
    expect(await gatehouse('user', 'create', '--email', 'ops@example.test', '--name', 'Ops', '--password', 'a long password')).toMatchObject({ code: 0 });
    expect(postmasters()).toEqual([]);
    expect(await isListening(clusterPort())).toBe(false);

    // What `gatehouse start` does for its database: the folder's cluster, running until it stops.
    const running = await openDatabaseTarget(readEnvironment());
    try {
      const [postmaster] = postmasters();
      expect(postmaster).toBeDefined();
      expect(await gatehouse('user', 'list')).toEqual({ code: 0, stdout: expect.stringContaining('ops@example.test (Ops, id '), stderr: '' });
      // No second postmaster was started, and the running one is the same and still serving.
      expect(postmasters()).toEqual([postmaster]);
      expect(await isListening(clusterPort())).toBe(true);
    } finally {
      await running.stop();
    }
    expect(postmasters()).toEqual([]);
  });
});
