import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { environmentSchema } from '../../server/cli/environment.js';

// The configuration reference's table of environment variables names every variable the CLI
// parses, so an operator who reads it misses none; and names none the CLI does not read.
describe('the environment variables in the configuration reference', () => {
  it('are the ones the CLI reads', async () => {
    const page = await readFile(new URL('../../docs/reference/configuration.md', import.meta.url), 'utf8');
    const table = page.slice(page.indexOf('## Environment variables'), page.indexOf('\n## ', page.indexOf('## Environment variables') + 1));
    const named = new Set([...table.matchAll(/`((?:GATEHOUSE_|DATABASE_|NODE_|LOG_)[A-Z_]+|PORT|HOST)`/g)].map(([, name]) => name!));
    expect([...named].sort()).toEqual(Object.keys(environmentSchema.shape).sort());
  });
});
