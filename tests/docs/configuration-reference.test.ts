import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { environmentSchema } from '../../server/cli/environment.js';
import { configSchema } from '../../server/config/config-schema.js';

// The configuration reference names every option a config accepts and every environment
// variable the CLI reads, so an operator who reads it misses none; the variables' table names
// none the CLI does not read.

let page: string;
beforeAll(async () => {
  page = await readFile(new URL('../../docs/reference/configuration.md', import.meta.url), 'utf8');
});

const section = (heading: string) => {
  const start = page.indexOf(`\n## ${heading}\n`);
  expect(start, `a "## ${heading}" section`).toBeGreaterThan(-1);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end === -1 ? undefined : end);
};

describe('the configuration reference', () => {
  it('names every option of the config schema', () => {
    const named = new Set([...page.matchAll(/`([a-zA-Z]+)[.`]/g)].map(([, name]) => name!));
    expect(Object.keys(configSchema.shape).filter((option) => !named.has(option))).toEqual([]);
  });

  it('lists exactly the environment variables the CLI reads', () => {
    const named = new Set([...section('Environment variables').matchAll(/`((?:GATEHOUSE_|DATABASE_|NODE_|LOG_)[A-Z_]+|PORT|HOST)`/g)].map(([, name]) => name!));
    expect([...named].sort()).toEqual(Object.keys(environmentSchema.shape).sort());
  });
});
