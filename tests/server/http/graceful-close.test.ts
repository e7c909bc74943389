import Router from '@koa/router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GatehouseState } from '../../../server/http/state.js';
import { send } from '../support/http-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
let arrived: () => void;
// Resolves once the slow route has the request in hand, so close() starts while it runs.
let started: Promise<void>;

// `/api/public/acme/slow?ms=N` answers after N ms: a request still running when close() begins.
const slowRoutes = () =>
  new Router<GatehouseState>().get('/slow', async (ctx) => {
    arrived();
    await new Promise((resolve) => setTimeout(resolve, Number(ctx.query.ms)));
    ctx.body = { done: true };
  });

beforeEach(() => {
  started = new Promise((resolve) => (arrived = resolve));
});

afterEach(async () => {
  await server.close();
});

const slow = (ms: number) => send(server.api.baseUrl, 'GET', `/api/public/acme/slow?ms=${ms}`);

describe('close() of createServer', () => {
  it('lets a running request finish, refuses new connections meanwhile, then resolves', async () => {
    server = await startTestServer({ dataRoutes: slowRoutes });
    const running = slow(1_500);
    await started;
    // A grace far longer than the test's timeout: resolving at all means it did not wait for it.
    const closed = server.server.close({ graceMs: 600_000 });
    await expect(server.api.get('/api/health')).rejects.toThrow(/ECONNREFUSED/);
    const answer = await running;
    expect(answer).toMatchObject({ status: 200, body: { done: true } });
    expect(answer.headers.connection).toBe('close');
    await closed;
  });

  it('cuts a request still running when the grace period ends', async () => {
    server = await startTestServer({ dataRoutes: slowRoutes });
    const running = slow(600_000).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await started;
    await server.server.close({ graceMs: 300 });
    expect(await running).toMatch(/socket hang up|ECONNRESET/);
  });

  it('may be called again, as the process and a test harness both do', async () => {
    server = await startTestServer();
    // Not kept alive: the check after close() must open a connection of its own.
    expect((await send(server.api.baseUrl, 'GET', '/api/health', { headers: { connection: 'close' } })).status).toBe(200);
    const closes = await Promise.allSettled([server.server.close({ graceMs: 100 }), server.server.close()]);
    expect(closes.map((close) => close.status)).toEqual(['fulfilled', 'fulfilled']);
    await expect(server.api.get('/api/health')).rejects.toThrow(/ECONNREFUSED/);
    await expect(server.server.close()).resolves.toBeUndefined();
  });
});
