#!/usr/bin/env node
// The CLI is written in TypeScript; tsx loads it in-process so `npx gatehouse` needs no build
// step and signals (SIGTERM for graceful shutdown) reach the server directly.
import { register } from 'tsx/esm/api';

register();
await import('../server/cli/main.ts');
