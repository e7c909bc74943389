import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findConfigFile, loadConfigFile } from '../../server/cli/load-config.js';
import { ConfigError } from '../../server/index.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gatehouse-config-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function configFile(text: string, name = 'gatehouse.config.mjs'): Promise<string> {
  await writeFile(join(dir, name), text);
  return join(dir, name);
}

describe('finding the config file', () => {
  it('takes --config when given, else the first of gatehouse.config.ts, .js, .mjs in the working directory', async () => {
    expect(findConfigFile(undefined, dir)).toBeUndefined();
    await configFile('export default {};', 'gatehouse.config.mjs');
    expect(findConfigFile(undefined, dir)).toBe(join(dir, 'gatehouse.config.mjs'));
    await configFile('export default {};', 'gatehouse.config.ts');
    expect(findConfigFile(undefined, dir)).toBe(join(dir, 'gatehouse.config.ts'));
    expect(findConfigFile('gatehouse.config.mjs', dir)).toBe(join(dir, 'gatehouse.config.mjs'));
    expect(() => findConfigFile('missing.config.ts', dir)).toThrow(new ConfigError('Config file missing.config.ts not found.'));
  });

  it('refuses a --config that names a folder (an empty one names the working directory) in one line', () => {
    const folder = new ConfigError(`--config ${dir} is a folder: name the config file itself (gatehouse.config.ts, gatehouse.config.js, gatehouse.config.mjs).`);
    expect(() => findConfigFile(dir, tmpdir())).toThrow(folder);
    expect(() => findConfigFile('', dir)).toThrow(folder);
  });
});

describe('loading the config file', () => {
  it.each(['gatehouse.config.ts', 'gatehouse.config.mjs'])('names the line and column of a syntax error in %s', async (name) => {
    const path = await configFile("export default {\n  basePath: '/api',\n  bodyLimit: '1kb' +,\n};\n", name);
    await expect(loadConfigFile(path)).rejects.toThrow(new ConfigError(`Config file ${path} has a syntax error at line 3, column 21: Unexpected ","`));
  });

  it('waits for a default export that is a promise: its value is the config, its rejection one line', async () => {
    const resolving = await configFile('export default Promise.resolve({ membershipEnforcement: true });');
    expect(await loadConfigFile(resolving)).toEqual({ membershipEnforcement: true });
    const rejecting = await configFile("export default Promise.reject(new Error('no secrets here'));", 'rejecting.config.mjs');
    await expect(loadConfigFile(rejecting)).rejects.toThrow(new ConfigError(`Config file ${rejecting} cannot be loaded: no secrets here`));
  });

  it('resolves the migrations folder against the file', async () => {
    const path = await configFile("export default { migrations: './migrations', membershipEnforcement: true };");
    expect(await loadConfigFile(path)).toEqual({ migrations: join(dir, 'migrations'), membershipEnforcement: true });
  });

  it.each([
    ['an unknown key', 'export default { databse: {} };', 'unknown option databse.'],
    ['an unknown nested key', "export default { routeGroups: [{ name: 'tenant', prefx: 'x' }] };", 'unknown option routeGroups.0.prefx.'],
    ['a wrong type', "export default { membershipEnforcement: 'yes' };", 'membershipEnforcement: Invalid input: expected boolean, received string.'],
    ['a replica URL that is no connection string', "export default { replicas: { urls: ['postgres://a@primary/app', 'primary:5432'] } };", 'replicas.urls.1: must be a connection string postgres://user:password@host:port/database.'],
    ['a replica URL naming several hosts', "export default { replicas: { urls: ['postgres://a@node1,node2/app'] } };", 'replicas.urls.0: must name one standby'],
    ['a seed that is no function', 'export default { seed: true };', 'seed: must be a function (ownerConnectionString) => Promise<boolean>.'],
    ['no default export', 'export const config = {};', 'must export its config as default: export default defineConfig({ ... }).'],
    ['a file that does not parse', 'export default {', 'has a syntax error at line 1, column 17: Expected identifier but found end of file'],
  ])('refuses %s with one line naming the file and the key', async (_case, text, message) => {
    const path = await configFile(text);
    const loading = loadConfigFile(path);
    await expect(loading).rejects.toBeInstanceOf(ConfigError);
    await expect(loading).rejects.toThrow(`Config file ${path}`);
    await expect(loading).rejects.toThrow(message);
    await expect(loading.catch((error: Error) => error.message.includes('\n'))).resolves.toBe(false);
  });
});
