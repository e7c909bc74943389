import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { TYPESCRIPT_MODULES_HOOKS } from './typescript-modules-hooks.js';

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts']);

let registered: Promise<void> | undefined;

/**
 * The CLI runs on the workspace's TypeScript sources (a checkout, where server/bin/gatehouse.js
 * registers tsx, or the tests' build of the CLI): TypeScript loads already.
 */
const runsOnSources = () => import.meta.resolve('@gatehouse/engine').endsWith('.ts');

/** The tsconfig.json of `folder` or of the nearest folder above it. */
function nearestTsconfig(folder: string): string | undefined {
  const candidate = join(folder, 'tsconfig.json');
  if (existsSync(candidate)) return candidate;
  return dirname(folder) === folder ? undefined : nearestTsconfig(dirname(folder));
}

/**
 * Makes the file at `path` importable: a TypeScript file registers tsx first, once per process,
 * and then the hooks that load the application's TypeScript as ES modules
 * (`typescript-modules-hooks.ts`). Node 20 loads no TypeScript by itself, and tsx costs tens of
 * MiB and most of a second of start, so an installed CLI with a JavaScript config never loads it.
 */
export function prepareImport(path: string): Promise<void> {
  if (!TYPESCRIPT.has(extname(path))) return Promise.resolve();
  registered ??= (runsOnSources() ? Promise.resolve() : registerTsx(path)).then(() => {
    // Registered after tsx, so it runs first and hands tsx the format.
    register(TYPESCRIPT_MODULES_HOOKS);
  });
  return registered;
}

/**
 * tsx, with the application's tsconfig.json (its `paths`): the one nearest the config, where
 * tsx would read the working directory's, not the application's when --config names a file elsewhere.
 */
async function registerTsx(path: string): Promise<void> {
  const tsconfig = nearestTsconfig(dirname(path));
  (await import('tsx/esm/api')).register(tsconfig === undefined ? {} : { tsconfig });
}
