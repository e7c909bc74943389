import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { importedPackages, PACKAGE_METADATA, REPOSITORY, sharedTarballs, tarballFiles, type Tarballs } from '../../harness/packed-packages.js';

// Each package as `npm publish` would send it, checked without publishing: a dry run, against a
// registry on a closed loopback port, so that not even a dropped `--dry-run` could publish (and
// with no retries: the dry run's login check would otherwise retry that port for a minute).

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const MINUTES = 60_000;
const NOWHERE = 'http://127.0.0.1:9/';
const PACKAGES = ['engine', 'client', 'server', 'node'] as const;

interface Manifest {
  name: string;
  version: string;
  license?: string;
  repository?: { type: string; url: string; directory?: string };
  engines?: { node?: string };
  sideEffects?: boolean | string[];
  exports?: Record<string, string | Record<string, string>>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  publishConfig?: { access?: string };
  workspaces?: string[];
}

const readJson = async <T>(path: string) => JSON.parse(await readFile(join(REPOSITORY, path), 'utf8')) as T;

async function packedManifest(tarball: string): Promise<Manifest> {
  const { stdout } = await run('tar', ['-xzOf', tarball, 'package/package.json']);
  return JSON.parse(stdout) as Manifest;
}

// `./bin/*.js` as a pattern over the tarball's paths.
const matcher = (pattern: string) => new RegExp(`^${pattern.replace(/^\.\//, '').replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`);

let tarballs: Tarballs;
let root: Manifest;

beforeAll(async () => {
  [tarballs, root] = await Promise.all([sharedTarballs(inject('packFolder')), readJson<Manifest>('package.json')]);
}, 15 * MINUTES);

describe.each(PACKAGES)('@gatehouse/%s as published', (folder) => {
  let manifest: Manifest;
  let files: string[];

  beforeAll(async () => {
    [manifest, files] = await Promise.all([packedManifest(tarballs[folder]), tarballFiles(tarballs[folder])]);
  });

  it('passes `npm publish --dry-run`, which would send exactly the tarball’s files, publicly', async () => {
    const { stdout } = await run(NPM, ['publish', '--dry-run', '--json', '--loglevel=error', '--fetch-retries=0', tarballs[folder]], {
      cwd: REPOSITORY,
      env: { ...process.env, npm_config_registry: NOWHERE },
    });
    const report = (JSON.parse(stdout) as Record<string, { id: string; files: { path: string }[] }>)[`@gatehouse/${folder}`]!;
    expect(report.id).toBe(`@gatehouse/${folder}@${manifest.version}`);
    expect(report.files.map((file) => file.path).sort()).toEqual([...files].sort());
    expect(manifest.publishConfig?.access).toBe('public');
  });

  it('ships its license text, README and build, and every file its exports, types and bin name', () => {
    expect(files).toEqual(expect.arrayContaining([...PACKAGE_METADATA]));
    expect(manifest.license).toBe(root.license);
    const targets = Object.values(manifest.exports ?? {}).flatMap((target) =>
      // `gatehouse-source` points at the TypeScript sources, which only a checkout has and only the repository's tools ask for.
      typeof target === 'string' ? [target] : Object.entries(target).filter(([condition]) => condition !== 'gatehouse-source').map(([, path]) => path),
    );
    for (const entry of Object.values(manifest.exports ?? {}).filter((target) => typeof target !== 'string')) {
      expect(Object.keys(entry).filter((condition) => condition !== 'gatehouse-source')).toEqual(['types', 'default']);
    }
    expect(targets.filter((target) => target.endsWith('.d.ts')).length).toBeGreaterThan(0);
    const named = [...targets, ...Object.values(manifest.bin ?? {})].map((path) => path.replace(/^\.\//, ''));
    expect(named.filter((path) => !files.includes(path))).toEqual([]);
  });

  // An install that gives each package only what it declares (pnpm, npm's linked strategy) would
  // otherwise fail at the first import of a package that some other dependency happened to bring.
  it('declares every package its build imports, rather than relying on another one to bring it', async () => {
    const declared = [manifest.name, ...Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })];
    expect((await importedPackages(tarballs[folder])).filter((name) => !declared.includes(name))).toEqual([]);
  });

  it('names the repository and its folder, the Node versions of the workspace, and its side effects', () => {
    expect(manifest.repository).toEqual({ ...root.repository, directory: folder });
    expect(manifest.engines).toEqual(root.engines);
    const { sideEffects } = manifest;
    expect(sideEffects === false || Array.isArray(sideEffects)).toBe(true);
    // The checkout's own bundles (the demo web app) build the packages from their sources, which
    // keep their side effects only where a pattern names the `gatehouse-source` entry too.
    const sources = Object.values(manifest.exports ?? {}).flatMap((target) => (typeof target === 'string' || !target['gatehouse-source'] ? [] : [target['gatehouse-source'].replace(/^\.\//, '')]));
    for (const pattern of Array.isArray(sideEffects) ? sideEffects : []) expect([...files, ...sources].some((file) => matcher(pattern).test(file)), pattern).toBe(true);
  });
});

describe('versions', () => {
  it('move together: one version for the four packages, each depending on the others at that version', async () => {
    const manifests = await Promise.all(PACKAGES.map((folder) => packedManifest(tarballs[folder])));
    const [version] = new Set(manifests.map((manifest) => manifest.version));
    expect(new Set(manifests.map((manifest) => manifest.version)).size).toBe(1);
    const internal = manifests.flatMap((manifest) => Object.entries(manifest.dependencies ?? {}).filter(([name]) => name.startsWith('@gatehouse/')));
    expect(internal.length).toBeGreaterThan(0);
    for (const [, range] of internal) expect(range).toBe(`^${version}`);
  });

  it('are one fixed group in Changesets: its four published packages, all of the workspace', async () => {
    const config = await readJson<{ fixed: string[][]; access: string }>('.changeset/config.json');
    const names = await Promise.all((root.workspaces ?? []).map(async (folder) => (await readJson<Manifest>(`${folder}/package.json`)).name));
    expect(config.fixed).toHaveLength(1);
    expect([...config.fixed[0]!].sort()).toEqual(names.sort());
    expect(config.access).toBe('public');
  });
});

describe('the release workflow', () => {
  it('publishes the tarballs of `npm run pack:packages` with provenance when a version tag is pushed', async () => {
    const workflow = parse(await readFile(join(REPOSITORY, '.github/workflows/release.yml'), 'utf8')) as {
      on: { push: { tags: string[] } };
      jobs: Record<string, { permissions?: Record<string, string>; steps: { run?: string }[] }>;
    };
    expect(workflow.on.push.tags).toEqual(['v*']);
    const [job] = Object.values(workflow.jobs);
    expect(job!.permissions?.['id-token']).toBe('write');
    const commands = job!.steps.flatMap((step) => (step.run === undefined ? [] : [step.run]));
    expect(commands.some((command) => command.includes('npm run pack:packages'))).toBe(true);
    expect(commands.some((command) => /npm publish .*--provenance/.test(command))).toBe(true);
  });
});
