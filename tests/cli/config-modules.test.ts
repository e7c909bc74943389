import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BIN, ROOT, startCommand, type CliRun } from '../../harness/cli.js';
import { NOTE_POLICY_FILE, NOTES_CONFIG_FILE, NOTES_POLICY_TESTS } from '../support/notes-app.js';

// `gatehouse policy test --config ...` run from an application's folder, as its developers run
// it: the config loads (through its imports, on the CLI's engine) or is refused in one line.
// Nothing here needs a database.
vi.setConfig({ testTimeout: 120_000 });

let artifacts: string;

beforeAll(async () => {
  await mkdir(join(ROOT, 'test-artifacts'), { recursive: true });
  // Inside the repository, so that the application resolves the workspace's @gatehouse packages.
  artifacts = await mkdtemp(join(ROOT, 'test-artifacts', 'config-modules-'));
});

afterAll(() => rm(artifacts, { recursive: true, force: true }));

/** Writes `files` (path → text) under `dir`, folders included. */
async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

async function gatehouse(cwd: string, ...args: string[]): Promise<CliRun> {
  const run = startCommand(process.execPath, [BIN, ...args], {}, { cwd });
  const code = await run.exited;
  return { ...run.output(), code: Number(code) };
}

describe('a TypeScript config in a package that is not an ES module one', () => {
  it('loads, every kind of file and package it imports too, its policies on the CLI engine', async () => {
    // A CommonJS package under a path with a space and non-ASCII letters, whose
    // gatehouse.config.ts is a symlink to app/config.ts, named relative to the working directory.
    const dir = join(artifacts, 'my app é');
    await writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'commonjs-app', private: true, type: 'commonjs' }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@app/*': ['app/*'] } } }),
      'node_modules/esm-only/package.json': JSON.stringify({ name: 'esm-only', type: 'module', exports: { import: './index.js' } }),
      'node_modules/esm-only/index.js': "export const shout = (word) => word.toUpperCase();\n",
      'app/note-policy.ts': NOTE_POLICY_FILE,
      'app/notes-model.ts': `import { defineModel } from '@gatehouse/server';

export const notes = defineModel({ slug: 'notes', tenantOwned: true, attributes: { organization_id: 'integer', title: 'string', author_id: 'integer' }, fillable: ['title'], authorColumn: 'author_id' });
`,
      'app/roles.ts': "export const owner: string[] = ['*'];\n",
      'app/member-role.ts': "export const member: string[] = ['notes.*'];\n",
      'app/limits.cts': 'const limits = { max: 3 };\nexport = limits;\n',
      'app/extra.mts': "export const extra: string = 'mts';\n",
      'app/settings.json': JSON.stringify({ plan: 'json' }),
      'app/helper.js': "module.exports = { name: 'commonjs' };\n",
      'app/config.ts': `import { defineConfig } from '@gatehouse/server';
import { shout } from 'esm-only';
import { NotePolicy } from '@app/note-policy.js';
import { notes } from './notes-model.js';
import { owner } from './roles.ts';
import { member } from './member-role';
import limits from './limits.cjs';
import { extra } from './extra.mjs';
import settings from './settings.json' with { type: 'json' };
import helper from './helper.js';

// Not type-checked: tsx only strips the types.
const typed: number = 'unchecked';
const awaited = await Promise.resolve('awaited');
const loaded = [shout('esm'), limits.max, extra, settings.plan, helper.name, typed, awaited];
if (JSON.stringify(loaded) !== '["ESM",3,"mts","json","commonjs","unchecked","awaited"]') throw new Error(\`imports gave \${JSON.stringify(loaded)}\`);

export default defineConfig({
  organizationRoles: { owner, member },
  data: { models: [notes], policies: { NotePolicy } },
  policyTests: '../policy-tests',
});
`,
      'policy-tests/notes.policy.yaml': NOTES_POLICY_TESTS,
    });
    await symlink(join('app', 'config.ts'), join(dir, 'gatehouse.config.ts'));
    const run = await gatehouse(dir, 'policy', 'test', '--config', 'gatehouse.config.ts');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/3 passed, 0 failed/);
  });

  it('loads without a package.json anywhere above it', async () => {
    // Outside the repository; node_modules is linked to reach the workspace's packages.
    const dir = await mkdtemp(join(tmpdir(), 'gatehouse-no-package-'));
    try {
      await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
      await writeFiles(dir, {
        'note-policy.ts': NOTE_POLICY_FILE,
        'gatehouse.config.ts': NOTES_CONFIG_FILE,
        'notes.policy.yaml': NOTES_POLICY_TESTS,
      });
      const run = await gatehouse(dir, 'policy', 'test', 'notes.policy.yaml');
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(/3 passed, 0 failed/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a config that does not load in one line naming the file at fault, exit 1', async () => {
    const dir = join(artifacts, 'broken-app');
    await writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'broken-app', private: true }),
      'broken.ts': 'export const limits = {\n  max: 3 +,\n};\n',
      'broken-helper.js': 'module.exports = {\n  max: 3 +,\n};\n',
      'esm-helper.js': 'export default { max: 3 };\n',
      'imports-broken-ts.config.ts': "import { limits } from './broken.js';\n\nexport default { basePath: `/${limits.max}` };\n",
      'imports-broken-commonjs.config.ts': "import helper from './broken-helper.js';\n\nexport default { basePath: `/${helper.max}` };\n",
      'imports-esm-js.config.ts': "import helper from './esm-helper.js';\n\nexport default { basePath: `/${helper.max}` };\n",
      'commonjs/package.json': JSON.stringify({ name: 'commonjs-app', private: true, type: 'commonjs' }),
      'commonjs/gatehouse.config.js': "export default { basePath: '/api' };\n",
      'function.config.ts': "export default () => ({ basePath: '/api' });\n",
    });
    const refusals = {
      'imports-broken-ts.config.ts': `cannot be loaded: ${join(dir, 'broken.ts')} has a syntax error at line 2, column 11: Unexpected ","`,
      'imports-broken-commonjs.config.ts': `cannot be loaded: ${join(dir, 'broken-helper.js')} has a syntax error at line 2, column 11: Unexpected ","`,
      'imports-esm-js.config.ts': `cannot be loaded: ${join(dir, 'esm-helper.js')} uses import/export, but its package is CommonJS: name it .mjs or .ts, or add "type": "module" to its package.json.`,
      'commonjs/gatehouse.config.js': 'uses import/export, but its package is CommonJS: name it .mjs or .ts, or add "type": "module" to its package.json.',
      'function.config.ts': 'exports a function: export the config object itself, export default defineConfig({ ... }).',
    };
    for (const [config, refusal] of Object.entries(refusals)) {
      expect(await gatehouse(dir, 'policy', 'test', '--config', config)).toEqual({ code: 1, stdout: '', stderr: `Config file ${join(dir, config)} ${refusal}\n` });
    }
  });
});
