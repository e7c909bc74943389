import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';

// The workspace packages as a user gets them: packed by npm (its prepare/prepack scripts build
// dist/), then installed from the tarballs alone into folders outside the repository.

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const require = createRequire(import.meta.url);

export const REPOSITORY = resolve(import.meta.dirname, '..');
const TSC = require.resolve('typescript/bin/tsc');

export interface Tarballs {
  engine: string;
  client: string;
  node: string;
  server: string;
  /** All that `npm run pack:packages` printed: the tarballs, then an install line per package. */
  printed: string;
}

/** A fresh folder under the system's temporary directory, outside the repository. */
export async function scratchFolder(prefix: string): Promise<string> {
  return mkdtemp(join(await realpath(tmpdir()), `gatehouse-${prefix}-`));
}

/**
 * A copy of the checkout's files (tracked, and new ones not ignored) in `copy`, without any build
 * output, sharing the checkout's installed dependencies: packing builds dist/ there, never in the checkout.
 */
async function cleanCopy(copy: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPOSITORY, maxBuffer: 64 * 1024 * 1024 });
  const files = stdout.split('\0').filter((file) => file !== '');
  for (const file of files) {
    await mkdir(dirname(join(copy, file)), { recursive: true });
    // A file deleted from the work tree but still in the index is not part of this checkout.
    await copyFile(join(REPOSITORY, file), join(copy, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  await linkDependencies(copy);
}

/**
 * node_modules of the copy: every installed package linked from the checkout, except the
 * workspace links, which point into the copy (a relative link does, made anew there).
 */
async function linkDependencies(copy: string): Promise<void> {
  const modules = join(REPOSITORY, 'node_modules');
  await mkdir(join(copy, 'node_modules', '@gatehouse'), { recursive: true });
  for (const entry of await readdir(modules)) {
    if (entry !== '@gatehouse') await symlink(join(modules, entry), join(copy, 'node_modules', entry));
  }
  for (const name of await readdir(join(modules, '@gatehouse'))) {
    await symlink(await readlink(join(modules, '@gatehouse', name)), join(copy, 'node_modules', '@gatehouse', name));
  }
  for (const workspace of ['engine', 'client', 'server', 'node']) {
    const own = join(REPOSITORY, workspace, 'node_modules');
    if (await stat(own).then(() => true, () => false)) await symlink(own, join(copy, workspace, 'node_modules'));
  }
}

/** How a reader of the docs packs the packages in a checkout (docs/getting-started/your-first-model.md). */
export const PACK_COMMAND = 'npm run pack:packages';
const PACKED_TARBALL = /^ {2}@gatehouse\/(engine|client|node|server) {2}(\S+)$/gm;

/**
 * `npm run pack:packages` in a copy of the checkout without build output, made under `folder`:
 * whatever `dist/` the tarballs carry, npm's own lifecycle scripts built it. The tarballs stay in
 * the copy's `packed/` (where the install lines it prints point) until `folder` is removed; the
 * checkout is left as it was.
 */
export async function packPackages(folder: string): Promise<Tarballs> {
  const copy = join(folder, 'checkout');
  await cleanCopy(copy);
  const { stdout } = await run('sh', ['-c', PACK_COMMAND], { cwd: copy, maxBuffer: 16 * 1024 * 1024 });
  const paths = Object.fromEntries([...stdout.matchAll(PACKED_TARBALL)].map(([, name, path]) => [name!, path!]));
  const { engine, client, node, server } = paths;
  if (engine === undefined || client === undefined || node === undefined || server === undefined) {
    throw new Error(`${PACK_COMMAND} printed no tarball for every package:\n${stdout}`);
  }
  return { engine, client, node, server, printed: stdout };
}

const PACKED = 'tarballs.json';
const FAILED = 'failed.txt';

/**
 * The run's one `npm pack` (a full build of every package, too slow to repeat): the first test
 * file to ask packs into `folder`, the others wait for its tarballs.
 */
export async function sharedTarballs(folder: string): Promise<Tarballs> {
  const packed = join(folder, PACKED);
  const failed = join(folder, FAILED);
  const first = await mkdir(join(folder, 'lock')).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false;
      throw error;
    },
  );
  if (first) {
    try {
      const tarballs = await packPackages(folder);
      await writeFile(packed, JSON.stringify(tarballs));
      return tarballs;
    } catch (error) {
      await writeFile(failed, String(error));
      throw error;
    }
  }
  for (;;) {
    const done = await readFile(packed, 'utf8').catch(() => null);
    if (done !== null) return JSON.parse(done) as Tarballs;
    const failure = await readFile(failed, 'utf8').catch(() => null);
    if (failure !== null) throw new Error(`npm pack failed in another test file: ${failure}`);
    await sleep(500);
  }
}

/** Besides its build, every tarball carries its manifest, its README (its page on a registry) and the license text. */
export const PACKAGE_METADATA: readonly string[] = ['package.json', 'README.md', 'LICENSE'];

/** The files of a tarball, without npm's `package/` prefix. */
export async function tarballFiles(tarball: string): Promise<string[]> {
  const { stdout } = await run('tar', ['-tzf', tarball], { maxBuffer: 16 * 1024 * 1024 });
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^package\//, ''));
}

// Module ids a build names besides its imports and requires: the ones it resolves or loads at run time.
const RESOLVED_AT_RUN_TIME = /(?:createRequire\(import\.meta\.url\)(?:\.resolve)?|import\.meta\.resolve)\(\s*['"]([^'"]+)['"]/g;
const packageName = (id: string) => id.split('/').slice(0, id.startsWith('@') ? 2 : 1).join('/');

/**
 * The packages a tarball's scripts and declarations ask for, by name: their imports (dynamic ones
 * too), requires, and the ids they resolve at run time. Node's own modules and relative paths are
 * not packages.
 */
export async function importedPackages(tarball: string): Promise<string[]> {
  const folder = await scratchFolder('tarball');
  try {
    await run('tar', ['-xzf', tarball, '-C', folder]);
    const names = new Set<string>();
    for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(c|m)?js$|\.d\.ts$/.test(entry.name)) continue;
      const text = await readFile(join(entry.parentPath, entry.name), 'utf8');
      const ids = [...ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName), ...[...text.matchAll(RESOLVED_AT_RUN_TIME)].map(([, id]) => id!)];
      for (const id of ids) if (!id.startsWith('.') && !id.startsWith('node:') && !builtinModules.includes(id)) names.add(packageName(id));
    }
    return [...names].sort();
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * A consumer project in `folder` with `tarballs` installed by npm, plus the `dependencies` the
 * consumer itself would list (a bundler, React DOM, zod). The npm cache is preferred, so a run
 * after the first one needs no network for unchanged versions.
 */
export async function installConsumer(folder: string, tarballs: string[], dependencies: Record<string, string> = {}): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }, null, 2));
  await run(NPM, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...tarballs], {
    cwd: folder,
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** Every package under `folder/node_modules`, nested ones included, by name. */
export async function installedPackages(folder: string): Promise<string[]> {
  const names = new Set<string>();
  const visit = async (modules: string): Promise<void> => {
    for (const entry of await readdir(modules, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const packages = entry.name.startsWith('@')
        ? (await readdir(join(modules, entry.name))).map((name) => [`${entry.name}/${name}`, join(modules, entry.name, name)] as const)
        : [[entry.name, join(modules, entry.name)] as const];
      for (const [name, path] of packages) {
        names.add(name);
        await visit(join(path, 'node_modules'));
      }
    }
  };
  await visit(join(folder, 'node_modules'));
  return [...names].sort();
}

/** `name` and everything it depends on, as installed under `folder`. */
export async function dependencyClosure(folder: string, name: string): Promise<string[]> {
  const seen = new Set<string>();
  const visit = async (dependency: string): Promise<void> => {
    if (seen.has(dependency)) return;
    seen.add(dependency);
    const manifest = JSON.parse(await readFile(join(folder, 'node_modules', dependency, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const next of Object.keys(manifest.dependencies ?? {})) await visit(next);
  };
  await visit(name);
  return [...seen].sort();
}

/** Bytes on disk under `folder`. */
export async function diskUsage(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** What an install under `folder` weighs: its packages, nested ones included, and megabytes on disk. */
export async function installFigures(folder: string): Promise<{ packages: number; megabytes: number }> {
  return {
    packages: (await installedPackages(folder)).length,
    megabytes: Math.round((await diskUsage(join(folder, 'node_modules'))) / 1e5) / 10,
  };
}

/** `tsc --noEmit -p folder` with the repository's TypeScript; rejects with tsc's report. */
export async function typeCheck(folder: string): Promise<void> {
  await run(process.execPath, [TSC, '--noEmit', '-p', folder], { cwd: folder, maxBuffer: 16 * 1024 * 1024 });
}

/** A tsconfig for a consumer that checks every declaration it reads, as TypeScript does by default. */
export function strictTsconfig(compilerOptions: Record<string, unknown> = {}): string {
  return JSON.stringify({
    compilerOptions: { strict: true, skipLibCheck: false, noEmit: true, target: 'es2022', module: 'nodenext', ...compilerOptions },
    include: ['src'],
  });
}

/** The version of a package the repository has installed, so a consumer gets the same one. */
export async function repositoryVersion(name: string): Promise<string> {
  return (JSON.parse(await readFile(join(REPOSITORY, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}
