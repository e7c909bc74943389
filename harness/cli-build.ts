import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ROOT } from './cli.js';

/**
 * Where the tests' build of the CLI lives: three folders below the repository, as
 * server/dist/db/migrations is below server/, so the paths the CLI finds from its own location
 * (the core migrations at ../../../sql) are the checkout's;
 * under node_modules, so it resolves the installed packages and
 * stays out of version control, beside the other tools' caches.
 */
export const CLI_BUILD = join(ROOT, 'node_modules', '.gatehouse-cli', 'cli', 'main.js');

/**
 * Bundles the CLI's TypeScript sources once into CLI_BUILD (esbuild, about a second), so every
 * CLI process the tests start loads one JavaScript file instead of transpiling the sources again.
 * Written beside and renamed into place: a test run already using the previous build keeps a whole file.
 */
export async function buildCli(): Promise<void> {
  const written = `${CLI_BUILD}.${process.pid}.tmp`;
  await build({
    entryPoints: [join(ROOT, 'server', 'cli', 'main.ts')],
    outfile: written,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Packages stay imports, as in a build, the workspace packages too: an application's config
    // imports `@gatehouse/engine` (its policies extend `ResourcePolicy`, the engine's errors cross
    // back), so the CLI must load the very same module, not a bundled copy.
    packages: 'external',
    logLevel: 'warning',
  });
  await rename(written, CLI_BUILD);
}
