import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { installConsumer, installFigures, REPOSITORY, repositoryVersion, scratchFolder, sharedTarballs, type Tarballs } from '../../harness/packed-packages.js';

// "What to install" in docs/reference/packages.md, measured: each of its rows installed from the
// packed tarballs alone into an empty folder, its packages counted and its bytes on disk added up.

const MINUTES = 60_000;
const PAGE = 'docs/reference/packages.md';
// An install resolves the newest versions its ranges allow (a package ships no lockfile), so a
// dependency's release moves the figures between runs: the page is right while it is this close.
const TOLERANCE = { packages: 0.05, megabytes: 0.1 };

/** Each row's install command (after `npm install`), and what installs it before publishing. */
const ROWS: Record<string, { tarballs: (keyof Omit<Tarballs, 'printed'>)[]; dependencies: string[] }> = {
  '@gatehouse/engine': { tarballs: ['engine'], dependencies: [] },
  '@gatehouse/node': { tarballs: ['engine', 'node'], dependencies: [] },
  '@gatehouse/server': { tarballs: ['engine', 'server'], dependencies: [] },
  '@gatehouse/client react react-dom': { tarballs: ['engine', 'client'], dependencies: ['react-dom'] },
  // React comes as the client's peer; React Native and AsyncStorage are the app's own, not counted.
  '@gatehouse/client react @react-native-async-storage/async-storage': { tarballs: ['engine', 'client'], dependencies: [] },
};

interface Documented {
  packages: number;
  megabytes: number;
}

/** The page's table rows: install command → its packages and MB, as written. */
async function documentedRows(): Promise<Map<string, Documented>> {
  const text = await readFile(join(REPOSITORY, PAGE), 'utf8');
  const rows = new Map<string, Documented>();
  for (const [, command, packages, megabytes] of text.matchAll(/^\|[^|]+\| `npm install ([^`]+)`[^|]*\| (\d+) \| ([\d.]+) MB \|$/gm)) {
    rows.set(command!, { packages: Number(packages), megabytes: Number(megabytes) });
  }
  return rows;
}

let scratch: string;
let tarballs: Tarballs;

beforeAll(async () => {
  scratch = await scratchFolder('install-sizes');
  tarballs = await sharedTarballs(inject('packFolder'));
}, 15 * MINUTES);

afterAll(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

describe(`What to install (${PAGE})`, () => {
  it('lists exactly the installs measured here', async () => {
    expect([...(await documentedRows()).keys()].sort()).toEqual(Object.keys(ROWS).sort());
  });

  it.each(Object.entries(ROWS))(
    '`npm install %s` brings the packages and megabytes the page says',
    async (command, row) => {
      const folder = join(scratch, command.replace(/\W+/g, '-'));
      const versions = await Promise.all(row.dependencies.map(async (name) => [name, await repositoryVersion(name)] as const));
      await installConsumer(
        folder,
        row.tarballs.map((name) => tarballs[name]),
        Object.fromEntries(versions),
      );
      const measured = await installFigures(folder);
      const documented = (await documentedRows()).get(command);
      const figures = `measured ${measured.packages} packages, ${measured.megabytes} MB; the page says ${JSON.stringify(documented)}`;
      expect(Math.abs(measured.packages - documented!.packages) / measured.packages, figures).toBeLessThanOrEqual(TOLERANCE.packages);
      expect(Math.abs(measured.megabytes - documented!.megabytes) / measured.megabytes, figures).toBeLessThanOrEqual(TOLERANCE.megabytes);
    },
    5 * MINUTES,
  );
});
