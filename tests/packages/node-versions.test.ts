import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPOSITORY } from '../../harness/packed-packages.js';

// The Node versions the repository promises (its `engines`) against what it installs (every
// package of the lockfile, the development tools included) and what it says and tests: a fresh
// `npm install` on the oldest promised version then prints no EBADENGINE warning.

const read = (path: string) => readFile(join(REPOSITORY, path), 'utf8');

interface Locked {
  version?: string;
  engines?: { node?: string } | string[];
}

async function oldestSupported(): Promise<semver.SemVer> {
  const { engines } = JSON.parse(await read('package.json')) as { engines: { node: string } };
  return semver.minVersion(engines.node)!;
}

describe('Node versions', () => {
  it('every locked package installs on the oldest Node of `engines`', async () => {
    const oldest = await oldestSupported();
    const { packages } = JSON.parse(await read('package-lock.json')) as { packages: Record<string, Locked> };
    const refusing = Object.entries(packages).flatMap(([path, locked]) => {
      const range = Array.isArray(locked.engines) ? undefined : locked.engines?.node;
      return range === undefined || semver.satisfies(oldest, range) ? [] : [`${path}@${locked.version}: node ${range}`];
    });
    expect(refusing).toEqual([]);
  });

  it('the README, CONTRIBUTING and the quick start name that version, and CI tests on it', async () => {
    const oldest = await oldestSupported();
    const named = `Node ${oldest.major}.${oldest.minor} or later`;
    for (const page of ['README.md', 'CONTRIBUTING.md', 'server/README.md', 'docs/getting-started/quick-start.md']) expect(await read(page), page).toContain(named);
    const workflows = await readdir(join(REPOSITORY, '.github/workflows'));
    const versions: string[] = [];
    for (const file of workflows) {
      const text = await read(join('.github/workflows', file));
      versions.push(...[...text.matchAll(/node-version: '([\d.]+)'/g)].map(([, version]) => version!));
      const matrix = (parse(text) as { jobs: Record<string, { strategy?: { matrix?: { node?: string[] } } }> }).jobs;
      for (const job of Object.values(matrix)) versions.push(...(job.strategy?.matrix?.node ?? []));
    }
    expect(versions).toContain(`${oldest.major}.${oldest.minor}`);
    // Every version CI runs is one the packages promise.
    expect(versions.filter((version) => !semver.satisfies(semver.coerce(version)!, `>=${oldest.version}`))).toEqual([]);
  });
});
