import { createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { createGatehouse, GatehouseError, type Gatehouse } from '@gatehouse/node';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDataServer } from '../server/support/data-server.js';
import type { TestServer } from '../server/support/test-server.js';
import { apiBase } from './support.js';

// Issue 36, finding 1: @gatehouse/node gives up on a silent Gatehouse, says why a call failed,
// and fails closed when Gatehouse is down unless the service opts in to its cached answers.

const CHECKS = [{ model: 'posts', action: 'index' }] as const;

describe('a Gatehouse that accepts the connection and never answers', () => {
  let silent: Server;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    silent = createServer((socket) => sockets.add(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    silent.close();
  });

  it('times out authorize and the key fetch with kind `timeout`', async () => {
    const { port } = silent.address() as { port: number };
    const gatehouse = createGatehouse({ baseURL: `http://127.0.0.1:${port}/api`, timeout: { responseMs: 50 } });
    const error = await gatehouse.authorize('v4.public.any', 'acme', CHECKS).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatehouseError);
    expect(error).toMatchObject({ kind: 'timeout', status: undefined });
    await expect(gatehouse.verifyToken('v4.public.any')).rejects.toMatchObject({ kind: 'timeout' });
    gatehouse.close();
  });
});

describe('a Gatehouse that stops', () => {
  let server: TestServer;
  // The clients' clock, moved on instead of waiting.
  let advanced = 0;
  const clients: Gatehouse[] = [];
  const client = (options: Omit<Parameters<typeof createGatehouse>[0], 'baseURL'>) => {
    const gatehouse = createGatehouse({ baseURL: apiBase(server), now: () => Date.now() + advanced, ...options });
    clients.push(gatehouse);
    return gatehouse;
  };

  beforeAll(async () => {
    server = await startDataServer();
  });

  afterAll(async () => {
    for (const gatehouse of clients) gatehouse.close();
    await server?.close();
  });

  it('is `unavailable`, fails closed by default, and answers from the cache only within its age when asked to', async () => {
    const token = await server.login('editor@acme.test');
    const everyCall = client({});
    const strict = client({ maxAge: 3600 });
    const cached = client({ maxAge: 60, onUnavailable: 'cached' });
    const unchecked = client({});
    for (const gatehouse of [everyCall, strict, cached]) expect((await gatehouse.permissions(token, 'acme')).role).toBe('editor');
    const kept = await cached.permissions(token, 'acme');

    await server.server.close();

    const error = await everyCall.permissions(token, 'acme').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatehouseError);
    expect(error).toMatchObject({ kind: 'unavailable', status: undefined });
    expect((error as Error).message).toMatch(/^Gatehouse cannot be reached/);

    // Once a call has found Gatehouse down, the kept answers stop answering for it...
    await expect(strict.authorize(token, 'acme', CHECKS)).rejects.toMatchObject({ kind: 'unavailable' });
    await expect(strict.permissions(token, 'acme')).rejects.toMatchObject({ kind: 'unavailable' });
    // ...unless the service opted in, and then only while they are younger than maxAge.
    await expect(cached.authorize(token, 'acme', CHECKS)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(await cached.permissions(token, 'acme')).toBe(kept);
    advanced += 60_000;
    await expect(cached.permissions(token, 'acme')).rejects.toMatchObject({ kind: 'unavailable' });

    // Without its keys a middleware cannot check a token: a 503, never let through and never a 500.
    await expect(unchecked.verifyToken(token)).rejects.toMatchObject({ kind: 'unavailable' });
    const app = Fastify();
    app.addHook('onRequest', unchecked.fastify());
    app.get('/me', async () => ({ through: true }));
    const answer = await app.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } });
    expect(answer.statusCode).toBe(503);
    expect(answer.json().message).toMatch(/^Gatehouse cannot be reached/);
    await app.close();
  });
});
