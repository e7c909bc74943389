#!/usr/bin/env node
// An installed package runs its build (dist/), made by `prepare`, in plain Node: tsx is loaded
// later, and only for an application's `gatehouse.config.ts` (server/cli/typescript-loader.ts).
// A checkout of the repository runs the TypeScript sources, and the workspace packages resolve
// to their sources too, through tsx registered here. Either way everything loads in-process, so
// signals such as SIGTERM for graceful shutdown reach the server directly.
import { existsSync } from 'node:fs';
import { register } from 'node:module';

const sources = new URL('../cli/main.ts', import.meta.url);
if (existsSync(sources)) {
  (await import('tsx/esm/api')).register();
  // Registered after tsx, so it runs first and tsx resolves with the added condition.
  register('./source-condition.js', import.meta.url);
  await import(sources.href);
} else {
  await import('../dist/cli/main.js');
}
