#!/usr/bin/env node
// An installed package runs its build (dist/, made by `prepare`). A checkout of the repository
// runs the TypeScript sources: tsx loads them in-process (signals such as SIGTERM for graceful
// shutdown reach the server directly) and the workspace packages resolve to their sources too.
import { existsSync } from 'node:fs';
import { register } from 'node:module';

const sources = new URL('../server/cli/main.ts', import.meta.url);
if (existsSync(sources)) {
  const { register: registerTsx } = await import('tsx/esm/api');
  registerTsx();
  // Registered after tsx, so it runs first and tsx resolves with the added condition.
  register('./source-condition.js', import.meta.url);
  await import(sources.href);
} else {
  await import('../dist/server/cli/main.js');
}
