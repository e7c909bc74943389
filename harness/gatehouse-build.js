#!/usr/bin/env node
// `gatehouse` as server/bin/gatehouse.js runs it in a checkout (workspace packages resolved to
// their TypeScript sources, loaded by tsx, which loads an application's TypeScript config too),
// but the CLI itself is the one build the test run made (harness/cli-build.ts), not its sources
// transpiled again.
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

registerTsx();
register('../server/bin/source-condition.js', import.meta.url);
await import('../node_modules/.gatehouse-cli/cli/main.js');
