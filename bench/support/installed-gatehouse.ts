import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { installConsumer, packPackages, scratchFolder } from '../../harness/packed-packages.js';

/** The demo served by an installed `gatehouse`: its bin and the same config as JavaScript and as TypeScript. */
export interface InstalledGatehouse {
  folder: string;
  bin: string;
  jsConfig: string;
  tsConfig: string;
}

/**
 * @gatehouse/engine and @gatehouse/server packed and installed into a folder outside the
 * repository, as a user gets them, with the demo's config bundled into one JavaScript module
 * that imports the installed packages (its migrations stay the checkout's), and a TypeScript
 * config that re-exports it: the same application, with and without tsx to load it.
 */
export async function installGatehouse(demoConfig: string): Promise<InstalledGatehouse> {
  const folder = await scratchFolder('installed');
  const tarballs = await packPackages(folder);
  const consumer = join(folder, 'app');
  await installConsumer(consumer, [tarballs.engine, tarballs.server]);
  const jsConfig = join(consumer, 'gatehouse.config.mjs');
  await build({
    entryPoints: [demoConfig],
    outfile: jsConfig,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // The demo's folders are found from its config's own location, in the checkout.
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(demoConfig).href) },
    plugins: [
      {
        name: 'installed-server',
        setup(bundler) {
          bundler.onResolve({ filter: /\/server\/index\.js$/ }, () => ({ path: '@gatehouse/server', external: true }));
        },
      },
    ],
    logLevel: 'warning',
  });
  const tsConfig = join(consumer, 'gatehouse.config.ts');
  await writeFile(tsConfig, "import type { GatehouseConfig } from '@gatehouse/server';\nimport demo from './gatehouse.config.mjs';\n\nconst config: GatehouseConfig = demo;\nexport default config;\n");
  return { folder, bin: join(consumer, 'node_modules', '@gatehouse', 'server', 'bin', 'gatehouse.js'), jsConfig, tsConfig };
}
