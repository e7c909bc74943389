import { extname } from 'node:path';

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts']);

let registered: Promise<void> | undefined;

/**
 * The CLI runs on the workspace's TypeScript sources (a checkout, where server/bin/gatehouse.js
 * registers tsx, or the tests' build of the CLI): TypeScript loads already.
 */
const runsOnSources = () => import.meta.resolve('@gatehouse/engine').endsWith('.ts');

/**
 * Makes the file at `path` importable: a TypeScript file registers tsx first, once per process.
 * Node 20 loads no TypeScript by itself, and tsx costs tens of MiB and most of a second of start,
 * so an installed CLI with a JavaScript config never loads it.
 */
export function prepareImport(path: string): Promise<void> {
  if (!TYPESCRIPT.has(extname(path)) || runsOnSources()) return Promise.resolve();
  registered ??= import('tsx/esm/api').then(({ register }) => {
    register();
  });
  return registered;
}
