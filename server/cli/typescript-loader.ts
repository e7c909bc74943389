import { register } from 'node:module';
import { extname } from 'node:path';
import { TYPESCRIPT_MODULES_HOOKS } from './typescript-modules-hooks.js';

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts']);

let registered: Promise<void> | undefined;

/**
 * The CLI runs on the workspace's TypeScript sources (a checkout, where server/bin/gatehouse.js
 * registers tsx, or the tests' build of the CLI): TypeScript loads already.
 */
const runsOnSources = () => import.meta.resolve('@gatehouse/engine').endsWith('.ts');

/**
 * Makes the file at `path` importable: a TypeScript file registers tsx first, once per process,
 * and then the hooks that load the application's TypeScript as ES modules
 * (`typescript-modules-hooks.ts`). Node 20 loads no TypeScript by itself, and tsx costs tens of
 * MiB and most of a second of start, so an installed CLI with a JavaScript config never loads it.
 */
export function prepareImport(path: string): Promise<void> {
  if (!TYPESCRIPT.has(extname(path))) return Promise.resolve();
  registered ??= (runsOnSources() ? Promise.resolve() : import('tsx/esm/api').then(({ register }) => void register())).then(() => {
    // Registered after tsx, so it runs first and hands tsx the format.
    register(TYPESCRIPT_MODULES_HOOKS);
  });
  return registered;
}
