import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envConfig } from '../../../server/cli/env-config.js';
import { readEnvironment } from '../../../server/cli/environment.js';
import { resolveConfig } from '../../../server/config/server-config.js';
import { startDataServer } from '../support/data-server.js';
import { createAccounts, createTenant, type Account, type Tenant } from '../support/tenant-fixture.js';
import type { TestServer } from '../support/test-server.js';

// A client that asks for a large answer and stops reading it held its socket, and the part of
// the answer the kernel could not take, in the server's memory for good. The send timeout here
// is short so the test does not wait; the keep-alive timeout keeps its default (65 s). Below, a
// second server keeps the default send timeout and bounds the memory stalled answers hold.

let server: TestServer;
let owner: Account;
let reader: Account;
let tenant: Tenant;
type LogLine = { msg: string; path?: string; sendTimeoutSeconds?: number; stalledAnswersMegabytes?: number };
const logLines: LogLine[] = [];
const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line) as LogLine) });

/** A server whose tenant's page of 100 posts of 160 KB is a 16 MB answer, more than the kernel's buffers on both ends hold. */
async function serverWithLargePages(options: { sendTimeoutSeconds?: number; stalledAnswersMegabytes?: number }): Promise<TestServer> {
  const started = await startDataServer({ logger, ...options });
  [owner, reader] = await createAccounts(started, 'owner', 'reader');
  tenant = await createTenant(started, [
    { account: owner, role: 'owner' },
    { account: reader, role: 'viewer' },
  ]);
  await started.sql("INSERT INTO posts (organization_id, author_id, title, body, status) SELECT $1, $2, 'Long ' || n, repeat('x', 160000), 'published' FROM generate_series(1, 100) AS n", [tenant.id, owner.id]);
  return started;
}

beforeAll(async () => {
  server = await serverWithLargePages({ sendTimeoutSeconds: 0.5 });
});

afterAll(() => server.close());

/** A raw keep-alive connection that has sent `request`; its answer's bytes gather in `received`. */
async function connection(request: string, to = server): Promise<{ socket: Socket; received: () => Buffer; closed: Promise<unknown>; isClosed: () => boolean }> {
  const { hostname, port } = new URL(to.api.baseUrl);
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => {});
  let isClosed = false;
  const closed = once(socket, 'close').then(() => (isClosed = true));
  await once(socket, 'connect');
  socket.write(request);
  return { socket, received: () => Buffer.concat(chunks), closed, isClosed: () => isClosed };
}

const get = (path: string, token?: string) =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${token ? `Authorization: Bearer ${token}\r\n` : ''}Connection: keep-alive\r\n\r\n`;

/**
 * Reads `slow`'s answer with a pause after every megabyte, each far shorter than the send timeout
 * however long the whole; answers whether the whole answer has come. It counts bytes as they come
 * rather than joining them: joining 16 MB at every chunk kept the process (the server's too) too
 * busy to write on a loaded machine.
 */
function readInPauses(slow: Awaited<ReturnType<typeof connection>>): () => boolean {
  let received = 0;
  let nextPause = 1 << 20;
  let answerLength: number | undefined;
  slow.socket.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (answerLength === undefined) {
      const head = slow.received().toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head)?.[1];
      if (end >= 0 && length !== undefined) answerLength = end + 4 + Number(length);
    }
    if (received < nextPause) return;
    nextPause += 1 << 20;
    slow.socket.pause();
    setTimeout(() => slow.socket.resume(), 50);
  });
  return () => answerLength !== undefined && received >= answerLength;
}

/** The log's warning for this path: the server closed the connection of an answer its client stopped taking. */
async function stalledAnswerLogged(path: string) {
  for (;;) {
    const line = logLines.find((entry) => entry.msg === 'answer not taken: connection closed' && entry.path === path);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A connection of its own holding a lock on one of the tenant's posts, which a request writing it waits for. */
async function lockedPost(): Promise<{ locker: pg.Client; id: number }> {
  const locker = new pg.Client({ connectionString: server.database.ownerUrl });
  locker.on('error', () => {});
  await locker.connect();
  const [post] = await server.sql<{ id: number }>('SELECT id FROM posts WHERE organization_id = $1 LIMIT 1', [tenant.id]);
  await locker.query('BEGIN');
  await locker.query('SELECT id FROM posts WHERE id = $1 FOR UPDATE', [post!.id]);
  return { locker, id: post!.id };
}

describe('an answer its client stops reading', () => {
  it('closes the connection once none of its answer has left for the send timeout, and serves the others', async () => {
    // A request still being processed when the stalled answer is cut: its post is locked.
    const { locker, id } = await lockedPost();
    try {
      const slow = server.api.request('PATCH', tenant.path(`/posts/${id}`), { token: owner.token, body: { title: 'Slow but sound' } });
      // An idle keep-alive connection: its answer is out, and it waits for its next request.
      const idle = await connection(get('/api/health'));
      await until(() => idle.received().includes('\r\n\r\n'));

      const stalled = await connection(get(tenant.path('/posts?per_page=100'), reader.token));
      stalled.socket.pause();
      expect(await stalledAnswerLogged(tenant.path('/posts'))).toMatchObject({ sendTimeoutSeconds: 0.5 });
      stalled.socket.resume();
      await stalled.closed;
      const [head = '', ...body] = stalled.received().toString('latin1').split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect(body.join('\r\n\r\n').length).toBeLessThan(Number(/content-length: (\d+)/i.exec(head)![1]));

      // The others: the request being processed, the idle connection and a new one.
      await locker.query('ROLLBACK');
      expect((await slow).status).toBe(200);
      expect(idle.isClosed()).toBe(false);
      idle.socket.write(get('/api/health'));
      await until(() => idle.received().toString().split('HTTP/1.1 200').length === 3);
      idle.socket.destroy();
      expect((await server.api.get(tenant.path('/posts?per_page=1'), { token: owner.token })).status).toBe(200);
    } finally {
      await locker.end();
    }
  });
});

describe('answers the send timeout must not cut', () => {
  it('sends a large answer whole to a client that reads it slowly, for longer than the send timeout', async () => {
    const slow = await connection(get(tenant.path('/posts?per_page=100'), reader.token));
    const started = performance.now();
    const whole = readInPauses(slow);
    await Promise.race([until(whole), slow.closed]);
    expect(performance.now() - started).toBeGreaterThan(500);
    expect({ whole: whole(), closed: slow.isClosed() }).toEqual({ whole: true, closed: false });
    slow.socket.destroy();
  });

  it('answers pipelined requests in order while the first is processed for longer than the send timeout', async () => {
    const { locker, id } = await lockedPost();
    try {
      const body = JSON.stringify({ title: 'Pipelined' });
      const patch = `PATCH ${tenant.path(`/posts/${id}`)} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${owner.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
      const head = `HEAD /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n`;
      const pipelined = await connection(patch + head + get('/api/health'));
      // The first request waits on the lock, the other two behind it, past the send timeout.
      await stalledLock();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await locker.query('ROLLBACK');
      await until(() => pipelined.received().toString('latin1').split('HTTP/1.1 ').length === 4 || pipelined.isClosed());
      const statuses = pipelined.received().toString('latin1').match(/HTTP\/1\.1 \d+/g);
      expect({ statuses, closed: pipelined.isClosed() }).toEqual({ statuses: ['HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 200'], closed: false });
      pipelined.socket.destroy();
    } finally {
      await locker.end();
    }
  });
});

/** Until a statement of the server's waits for a lock. */
async function stalledLock(): Promise<void> {
  for (;;) {
    const [row] = await server.sql<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [server.database.name]);
    if (row!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('the memory the stalled answers hold', () => {
  // Each 16 MB answer alone is past the 1 MB bound, and the send timeout is its default, 65 s.
  let bounded: TestServer;
  beforeAll(async () => {
    bounded = await serverWithLargePages({ stalledAnswersMegabytes: 1 });
  });
  afterAll(() => bounded.close());

  it('closes the connections of stalled answers past the bound long before their send timeout, and serves the others', async () => {
    const idle = await connection(get('/api/health'), bounded);
    await until(() => idle.received().includes('\r\n\r\n'));
    const stalled = await Promise.all([connection(get(tenant.path('/posts?per_page=100'), reader.token), bounded), connection(get(tenant.path('/posts?per_page=100'), owner.token), bounded)]);
    for (const { socket } of stalled) socket.pause();
    const closedForMemory = () => logLines.filter(({ msg }) => msg === 'answers not taken hold too much memory: connection closed');
    await until(() => closedForMemory().length === 2);
    expect(closedForMemory()).toMatchObject([
      { path: tenant.path('/posts'), stalledAnswersMegabytes: 1 },
      { path: tenant.path('/posts'), stalledAnswersMegabytes: 1 },
    ]);
    for (const { socket } of stalled) socket.resume();
    await Promise.all(stalled.map(({ closed }) => closed));

    expect(idle.isClosed()).toBe(false);
    idle.socket.write(get('/api/health'));
    await until(() => idle.received().toString().split('HTTP/1.1 200').length === 3);
    idle.socket.destroy();
    expect((await bounded.api.get(tenant.path('/posts?per_page=1'), { token: owner.token })).status).toBe(200);
  });

  it('sends a large answer whole to a client that keeps reading it, though the answer alone is past the bound', async () => {
    const slow = await connection(get(tenant.path('/posts?per_page=100'), reader.token), bounded);
    const whole = readInPauses(slow);
    await Promise.race([until(whole), slow.closed]);
    expect({ whole: whole(), closed: slow.isClosed() }).toEqual({ whole: true, closed: false });
    slow.socket.destroy();
  });
});

describe('the sendTimeoutSeconds and stalledAnswersMegabytes settings', () => {
  const resolved = (env: NodeJS.ProcessEnv) => resolveConfig(envConfig(readEnvironment(env), 'postgres://unused', 'k4.secret.unused'));

  it('take the keep-alive timeout and 64 MB unless set', () => {
    expect(resolved({}).sendTimeoutSeconds).toBe(65);
    expect(resolved({ GATEHOUSE_KEEP_ALIVE_TIMEOUT: '120' }).sendTimeoutSeconds).toBe(120);
    expect(resolved({ GATEHOUSE_SEND_TIMEOUT: '15' }).sendTimeoutSeconds).toBe(15);
    expect(() => resolved({ GATEHOUSE_SEND_TIMEOUT: 'never' })).toThrow('GATEHOUSE_SEND_TIMEOUT');
    expect(resolved({}).stalledAnswersMegabytes).toBe(64);
    expect(resolved({ GATEHOUSE_STALLED_ANSWERS_MB: '16' }).stalledAnswersMegabytes).toBe(16);
    expect(() => resolved({ GATEHOUSE_STALLED_ANSWERS_MB: 'lots' })).toThrow('GATEHOUSE_STALLED_ANSWERS_MB');
  });
});
