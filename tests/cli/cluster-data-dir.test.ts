import { chmod, lstat, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterDataDir } from '../../server/cli/cluster-data-dir.js';
import { UntrustedFolderError } from '../../server/db/cluster/root-folder.js';

// As root the embedded cluster runs as the `postgres` user, who must enter its data folder: a
// project in a folder only root can enter keeps its cluster under root's clusters folder instead.
// The folders' owner is whoever runs the tests (root in CI).
const owner = process.getuid!();
let scratch: string;
let clusters: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'gatehouse-data-dir-'));
  await chmod(scratch, 0o755);
  await mkdir(join(scratch, 'closed', 'project'), { recursive: true });
  await mkdir(join(scratch, 'open', 'project'), { recursive: true });
  await chmod(join(scratch, 'closed'), 0o700);
  clusters = join(scratch, 'var-lib-gatehouse');
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('the embedded cluster’s data folder', () => {
  it('is the project home’s pg where the postgres user can enter, and for other users', async () => {
    expect(await clusterDataDir(join(scratch, 'open', 'project', '.gatehouse'), 0, clusters)).toBe(join(scratch, 'open', 'project', '.gatehouse', 'pg'));
    expect(await clusterDataDir(join(scratch, 'closed', 'project', '.gatehouse'), 1000, clusters)).toBe(join(scratch, 'closed', 'project', '.gatehouse', 'pg'));
  });

  it('is a folder of the project’s own under root’s clusters folder, kept across starts', async () => {
    const home = join(scratch, 'closed', 'project', '.gatehouse');
    const dataDir = await clusterDataDir(home, 0, clusters, owner);
    expect(dataDir.startsWith(`${clusters}/`)).toBe(true);
    expect(await clusterDataDir(home, 0, clusters, owner)).toBe(dataDir);
    expect(await clusterDataDir(join(scratch, 'closed', 'other', '.gatehouse'), 0, clusters, owner)).not.toBe(dataDir);
    for (const folder of [clusters, join(dataDir, '..')]) expect((await lstat(folder)).mode & 0o777).toBe(0o755);
  });

  it('refuses a clusters folder others can change', async () => {
    const shared = join(scratch, 'shared');
    await mkdir(shared);
    await chmod(shared, 0o777);
    await expect(clusterDataDir(join(scratch, 'closed', 'project', '.gatehouse'), 0, shared, owner)).rejects.toThrow(UntrustedFolderError);
  });
});
