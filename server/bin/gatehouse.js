#!/usr/bin/env node
// An installed package runs its build (dist/, made by `prepare`). A checkout of the repository
// runs the TypeScript sources and the workspace packages resolve to their sources too. Either way
// tsx loads TypeScript in-process, so signals such as SIGTERM for graceful shutdown reach the
// server directly and an application's `gatehouse.config.ts` loads on Node 20.
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

registerTsx();
const sources = new URL('../cli/main.ts', import.meta.url);
if (existsSync(sources)) {
  // Registered after tsx, so it runs first and tsx resolves with the added condition.
  register('./source-condition.js', import.meta.url);
  await import(sources.href);
} else {
  await import('../dist/cli/main.js');
}
