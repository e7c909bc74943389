import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js');
const webFolder = fileURLToPath(new URL('../../web', import.meta.url));

/**
 * The demo web app built once per test run into a folder of its own, leaving `web/dist` alone.
 * A child process, as `npm run build:web` runs it: under Vitest's NODE_ENV=test the React
 * plugin would compile for development.
 */
export async function buildWebApp(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-web-'));
  await promisify(execFile)(process.execPath, [vite, 'build', webFolder, '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'], {
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
