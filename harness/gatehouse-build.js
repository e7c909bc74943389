#!/usr/bin/env node
// `gatehouse` as server/bin/gatehouse.js runs it in a checkout (tsx for an application's
// TypeScript config, workspace packages resolved to their sources), but the CLI itself is the
// one build the test run made (harness/cli-build.ts), not its sources transpiled again.
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

registerTsx();
register('../server/bin/source-condition.js', import.meta.url);
await import('../node_modules/.gatehouse-cli/cli/main.js');
