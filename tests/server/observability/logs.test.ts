import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger, LOG_FLUSH_INTERVAL_MS } from '../../../server/http/logger.js';
import { startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

type Line = Record<string, unknown>;
const POST_ID = 876_543;

describe('the request log', () => {
  it('writes a line out within a second on a quiet server, though it writes in batches', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gatehouse-flush-'));
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const file = join(dir, 'quiet.log');
      const logger = createLogger('info', file);
      const stream = (logger as unknown as Record<symbol, NodeJS.EventEmitter & { fd: number }>)[pino.symbols.streamSym]!;
      if (stream.fd < 0) await once(stream, 'ready');
      logger.info({ requestId: 'quiet-1' }, 'request');
      expect(await readFile(file, 'utf8')).toBe('');
      vi.advanceTimersByTime(LOG_FLUSH_INTERVAL_MS);
      await vi.waitFor(async () => expect(await readFile(file, 'utf8')).toContain('"requestId":"quiet-1"'));
    } finally {
      vi.useRealTimers();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes out what is left when the server closes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gatehouse-flush-'));
    const file = join(dir, 'closing.log');
    // The once-a-second timer is a fake that never fires: only the shutdown can write the line.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const logger = createLogger('info', file);
    vi.useRealTimers();
    try {
      const server = await startDataServer({ logger });
      expect((await server.api.get('/api/health', { headers: { 'X-Request-Id': 'closing-1' } })).status).toBe(200);
      expect(await readFile(file, 'utf8')).not.toContain('closing-1');
      await server.close();
      expect(await readFile(file, 'utf8')).toContain('"requestId":"closing-1"');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('stage logs at debug level', () => {
  const lines: Line[] = [];
  let server: TestServer;

  beforeAll(async () => {
    server = await startDataServer({ logger: pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) }) });
    await server.sql(
      `INSERT INTO posts (id, organization_id, title, status) OVERRIDING SYSTEM VALUE SELECT $1, id, 'Logged post', 'published' FROM organizations WHERE slug = 'acme'`,
      [POST_ID],
    );
  });

  afterAll(() => server.close());

  it("show each request's opening and each statement with its duration and row count, never a value", async () => {
    const token = await server.login('viewer@acme.test');
    const response = await server.api.get(`/api/acme/posts/${POST_ID}`, { token, headers: { 'X-Request-Id': 'staged-1' } });
    expect(response.status).toBe(200);
    const stages = lines.filter((line) => line.requestId === 'staged-1' && line.msg !== 'request');
    expect(stages.map((line) => line.stage)).toEqual(['opening', ...stages.slice(1, -1).map(() => 'statement'), 'commit']);
    expect(stages.every((line) => line.level === 20 && typeof line.durationMs === 'number')).toBe(true);
    const statements = stages.filter((line) => line.stage === 'statement');
    expect(statements.length).toBeGreaterThan(0);
    const record = statements.find((line) => line.rows === 1 && /from "posts"/.test(String(line.sql)))!;
    expect(record.sql).toMatch(/\$1/);
    for (const line of stages) expect(JSON.stringify(line)).not.toMatch(new RegExp(`${POST_ID}|${token}|viewer@acme\\.test`));
  });
});

describe("a refusal's log line", () => {
  const lines: Line[] = [];
  let server: TestServer;

  beforeAll(async () => {
    // Refusals that do not explain themselves to the caller: the operator's line still says why.
    server = await startDataServer({ explain: { responses: false }, logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) }) });
  });

  afterAll(() => server.close());

  const lineOf = (requestId: string) => lines.find((line) => line.msg === 'request' && line.requestId === requestId)!;

  it('carries the gate that refused and what the caller lacks', async () => {
    const token = await server.login('viewer@acme.test');
    const [post] = await server.sql<{ id: number }>("SELECT p.id FROM posts p JOIN organizations o ON o.id = p.organization_id WHERE o.slug = 'acme' LIMIT 1");
    const refused = await server.api.delete(`/api/acme/posts/${post!.id}`, { token, headers: { 'X-Request-Id': 'refused-1' } });
    expect(refused.status).toBe(403);
    expect(refused.body).not.toHaveProperty('reason');
    expect(lineOf('refused-1')).toMatchObject({ status: 403, reason: { gate: 'policy', permission: 'posts.destroy' } });

    expect((await server.api.get('/api/acme/posts/987000111', { token, headers: { 'X-Request-Id': 'refused-2' } })).status).toBe(404);
    expect(lineOf('refused-2')).toMatchObject({ status: 404, reason: { gate: 'record' } });
    expect((await server.api.get('/api/acme/posts', { headers: { 'X-Request-Id': 'refused-3' } })).status).toBe(401);
    expect(lineOf('refused-3')).toMatchObject({ status: 401, reason: { gate: 'authentication' } });

    expect((await server.api.get(`/api/acme/posts/${post!.id}`, { token, headers: { 'X-Request-Id': 'allowed-1' } })).status).toBe(200);
    const allowed = lineOf('allowed-1');
    expect(allowed).not.toHaveProperty('reason');
    expect(allowed).not.toHaveProperty('traceId');
  });
});
