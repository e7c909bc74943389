import Router from '@koa/router';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatehouseState } from '../../server/http/state.js';
import { send } from './support/http-client.js';
import { startTestServer, type TestServer } from './support/test-server.js';

// `/api/public/acme/slow?ms=N` answers after N ms: a request still running when close() begins.
const slowRoutes = () =>
  new Router<GatehouseState>().get('/slow', async (ctx) => {
    await new Promise((resolve) => setTimeout(resolve, Number(ctx.query.ms)));
    ctx.body = { done: true };
  });

let server: TestServer;

afterEach(async () => {
  await server.close();
});

const slow = (ms: number) => send(server.api.baseUrl, 'GET', `/api/public/acme/slow?ms=${ms}`);
const started = () => new Promise((resolve) => setTimeout(resolve, 200));

describe('close() of createServer', () => {
  it('lets a running request finish, refuses new connections meanwhile, then resolves', async () => {
    server = await startTestServer({ dataRoutes: slowRoutes });
    const running = slow(1_500);
    await started();
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
    await started();
    await server.server.close({ graceMs: 300 });
    expect(await running).toMatch(/socket hang up|ECONNRESET/);
  });

  it('may be called again, as the process and a test harness both do', async () => {
    server = await startTestServer();
    await Promise.all([server.server.close({ graceMs: 100 }), server.server.close()]);
  });
});
