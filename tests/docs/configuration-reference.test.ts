import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { environmentSchema, readEnvironment } from '../../server/cli/environment.js';
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

  it('lists exactly the environment variables the CLI reads, each in one row', () => {
    // A variable's row is the one whose first cell names it; the other cells may mention others.
    const rows = section('Environment variables').split('\n').filter((line) => line.startsWith('| `'));
    const named = rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`((?:GATEHOUSE_|DATABASE_|NODE_|LOG_|OTEL_)[A-Z_]+|PORT|HOST)`/g)].map(([, name]) => name!));
    expect(named.filter((name, index) => named.indexOf(name) !== index)).toEqual([]);
    expect(named.filter((name) => !name.startsWith('OTEL_')).sort()).toEqual(Object.keys(environmentSchema.shape).sort());
  });

  it('gives the port the service listens on when PORT is unset or blank: 3000', () => {
    expect(section('Environment variables')).toContain('| `PORT`, `HOST` | 3000, all interfaces |');
    expect([readEnvironment({}).PORT, readEnvironment({ PORT: '' }).PORT]).toEqual([3000, 3000]);
  });
});
