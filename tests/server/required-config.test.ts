import { createServer, type ServerConfig } from '@gatehouse/server';
import { describe, expect, it } from 'vitest';

// A JavaScript caller's first try, `createServer()` or a config missing a required option, failed
// with a TypeError from deep inside (`reading 'ownerRole'`, `reading 'map'`) that named nothing.

const start = (config: unknown) => createServer(config as ServerConfig);
const refused = (message: string) => expect.objectContaining({ name: 'ConfigError', message });
const NONE = 'The config of createServer has no database.connectionString, tokens.secretKey, routeGroups: they are required.';

describe('createServer without its required options', () => {
  it('names every required option when it is given no config object', async () => {
    for (const config of [undefined, null, 'postgres://localhost/app', 42, []]) {
      await expect(start(config)).rejects.toThrow(refused(NONE));
    }
  });

  it('names the required options a config lacks, nested ones by their path', async () => {
    await expect(start({})).rejects.toThrow(refused(NONE));
    await expect(start({ database: { connectionString: 'postgres://localhost/app' }, tokens: {}, routeGroups: [] })).rejects.toThrow(refused('The config of createServer has no tokens.secretKey: it is required.'));
  });
});
