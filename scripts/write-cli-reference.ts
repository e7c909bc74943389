import { writeFile } from 'node:fs/promises';
import { createProgram } from '../server/cli/program.js';
import { cliReference } from './cli-reference.js';

/** `npm run docs:cli`: rewrites docs/reference/cli.md from the program's definitions. */
const target = new URL('../docs/reference/cli.md', import.meta.url);
await writeFile(target, cliReference(createProgram()));
console.log(`Wrote ${target.pathname}`);
