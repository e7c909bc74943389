import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * `npm run pack:packages [-- <folder>]`: the four published packages as npm tarballs (each
 * built by its own prepack), in `packed/` of the checkout unless a folder is given, then the
 * `npm install` lines that stand in for the registry until the packages are published there.
 * npm's own output goes to stderr, so stdout is only what a reader copies.
 */
const REPOSITORY = resolve(import.meta.dirname, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Manifest {
  name: string;
  version: string;
  workspaces: string[];
  dependencies?: Record<string, string>;
}

const manifest = (folder: string): Manifest => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest;
// npm's tarball name: the scope's `@` dropped and its `/` made a `-`.
const tarballName = ({ name, version }: Manifest) => `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
const quoted = (path: string) => (/^[\w./:@+-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`);

const destination = resolve(process.argv[2] ?? join(REPOSITORY, 'packed'));
mkdirSync(destination, { recursive: true });
const packed = spawnSync(NPM, ['pack', '--workspaces', '--pack-destination', destination], { cwd: REPOSITORY, stdio: ['ignore', 2, 2] });
if (packed.status !== 0) {
  console.error(`npm pack failed (exit ${packed.status ?? packed.signal})`);
  process.exit(1);
}

const packages = new Map(manifest(REPOSITORY).workspaces.map((folder) => [manifest(join(REPOSITORY, folder)).name, manifest(join(REPOSITORY, folder))]));
const tarball = (name: string) => quoted(join(destination, tarballName(packages.get(name)!)));
// A package's tarball and those of the workspace packages it depends on, which the registry cannot supply yet.
const installLine = (name: string) => {
  const workspaceDependencies = Object.keys(packages.get(name)!.dependencies ?? {}).filter((dependency) => packages.has(dependency));
  return `npm install ${[...workspaceDependencies, name].map(tarball).join(' ')}`;
};

console.log(`Packed into ${destination}:`);
for (const name of packages.keys()) console.log(`  ${name}  ${tarball(name)}`);
console.log('\nUntil the packages are on the npm registry, run the line for a package where a page says `npm install <package>`:\n');
for (const name of packages.keys()) console.log(`${installLine(name)}  # ${name}`);
