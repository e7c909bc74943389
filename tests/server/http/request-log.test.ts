import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTokenKeyPair } from '../../../server/auth/token-keys.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { startTestServer } from '../support/test-server.js';
import { BIN } from '../../../harness/cli.js';

// The request log is written asynchronously, in batches; a SIGTERM right after a burst of
// requests must still leave every request's line on stdout.
const REQUESTS = 300;

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterAll(() => testDb.drop());

const requestLines = (text: string, path: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; path?: string })
    .filter((line) => line.msg === 'request' && line.path === path);

describe('request log', () => {
  it('is written out by the time close() resolves, though it is written in batches', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gatehouse-log-'));
    try {
      const file = join(dir, 'requests.log');
      const server = await startTestServer({ logger: pino(pino.destination({ dest: file, sync: false, minLength: 8192 })) });
      for (let index = 0; index < 20; index += 1) expect((await server.api.get('/api/health')).status).toBe(200);
      await server.close();
      expect(requestLines(await readFile(file, 'utf8'), '/api/health')).toHaveLength(20);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('loses no line when the server is stopped with SIGTERM', async () => {
    const { secretKey } = await generateTokenKeyPair();
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, DATABASE_URL: testDb.ownerUrl, GATEHOUSE_ALLOW_OWNER_CONNECTION: 'true', GATEHOUSE_PASETO_SECRET_KEY: secretKey, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = once(child, 'exit');
    while (!/listening on (http:\/\/\S+)/.test(stdout)) {
      if (child.exitCode !== null) throw new Error(`serve exited: ${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const url = /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
    const paths = Array.from({ length: REQUESTS }, (_, index) => `/api/health?n=${index}`);
    const statuses = await Promise.all(paths.map(async (path) => (await fetch(`${url}${path}`)).status));
    expect(statuses.every((status) => status === 200)).toBe(true);
    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(requestLines(stdout, '/api/health')).toHaveLength(REQUESTS);
  });
});
