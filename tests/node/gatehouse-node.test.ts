import { once } from 'node:events';
import type { Server } from 'node:http';
import { createGatehouse, GatehouseError, serviceStatus, UnauthenticatedError, type Gatehouse, type RequestCaller } from '@gatehouse/node';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../harness/cli.js';
import { startDataServer } from '../server/support/data-server.js';
import { startTcpProxy } from '../server/support/tcp-proxy.js';
import { tokenClaims } from '../server/support/token-claims.js';
import type { TestServer } from '../server/support/test-server.js';
import { apiBase, call, grant, tampered, urlOf } from './support.js';

// Issue 22, item 3: an Express app and a Fastify app use @gatehouse/node against a real server.

let server: TestServer;
let gatehouse: Gatehouse;
let expressServer: Server;
let fastify: FastifyInstance;
const services: Record<string, string> = {};

/** Each app: `/me` answers the verified caller, `/:org/posts` creates a post only if Gatehouse allows it. */
function expressApp(): express.Express {
  const app = express();
  app.use(gatehouse.express());
  app.get('/me', (req, res) => void res.json({ userId: req.gatehouse!.userId }));
  app.post('/:org/posts', async (req, res) => {
    const [result] = await gatehouse.authorize(req.gatehouse!.token, req.params.org, [{ model: 'posts', action: 'store' }]);
    res.status(result!.allowed ? 201 : 403).json(result);
  });
  return app;
}

async function fastifyApp(): Promise<FastifyInstance> {
  const app = Fastify();
  app.decorateRequest('gatehouse', undefined);
  app.addHook('onRequest', gatehouse.fastify());
  app.get('/me', async (request) => ({ userId: request.gatehouse!.userId }));
  app.post<{ Params: { org: string } }>('/:org/posts', async (request, reply) => {
    const [result] = await gatehouse.authorize(request.gatehouse!.token, request.params.org, [{ model: 'posts', action: 'store' }]);
    return reply.code(result!.allowed ? 201 : 403).send(result);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

declare module 'fastify' {
  interface FastifyRequest {
    gatehouse?: RequestCaller;
  }
}
declare module 'express-serve-static-core' {
  interface Request {
    gatehouse?: RequestCaller;
  }
}

beforeAll(async () => {
  server = await startDataServer({ decisionLog: { store: 'database' } });
  gatehouse = createGatehouse({ baseURL: apiBase(server) });
  expressServer = expressApp().listen(0, '127.0.0.1');
  await once(expressServer, 'listening');
  fastify = await fastifyApp();
  services.express = urlOf(expressServer);
  services.fastify = urlOf(fastify.server);
});

afterAll(async () => {
  expressServer?.close();
  await fastify?.close();
  gatehouse?.close();
  await server?.close();
});

describe.each(['express', 'fastify'])('a %s service using @gatehouse/node', (name) => {
  it('lets a genuine token through and answers a tampered one with 401', async () => {
    const token = await server.login('editor@acme.test');
    const [user] = await server.sql<{ id: number }>("SELECT id FROM users WHERE email = 'editor@acme.test'");
    expect(await call(`${services[name]}/me`, token)).toEqual({ status: 200, body: { userId: user!.id } });
    expect((await call(`${services[name]}/me`, tampered(token))).status).toBe(401);
    expect((await fetch(`${services[name]}/me`)).status).toBe(401);
  });

  it('refuses a revoked session on the next authorize call', async () => {
    const token = await server.login('owner@acme.test');
    expect((await call(`${services[name]}/acme/posts`, token, { method: 'POST', body: '{}' })).status).toBe(201);
    expect((await server.api.post('/api/auth/logout', { token })).status).toBeLessThan(300);
    await expect(gatehouse.authorize(token, 'acme', [{ model: 'posts', action: 'store' }])).rejects.toBeInstanceOf(UnauthenticatedError);
  });
});

describe('verifyToken', () => {
  it("answers the token's user, session, route group and expiry", async () => {
    const token = await server.login('admin@example.test', { path: '/api/admin/auth/login' });
    const { sid, exp } = tokenClaims(token);
    const [user] = await server.sql<{ id: number }>("SELECT id FROM users WHERE email = 'admin@example.test'");
    expect(await gatehouse.verifyToken(token)).toEqual({ userId: user!.id, sessionId: sid, routeGroup: 'admin', expiresAt: new Date(exp!) });
  });
});

describe('authorize', () => {
  it('asks Gatehouse over one kept-alive connection, call after call', async () => {
    const proxy = await startTcpProxy(Number(new URL(server.api.baseUrl).port));
    const kept = createGatehouse({ baseURL: `http://127.0.0.1:${proxy.port}/api` });
    try {
      const token = await server.login('editor@acme.test');
      for (let call = 0; call < 3; call += 1) expect(await kept.authorize(token, 'acme', [{ model: 'posts', action: 'index' }])).toEqual([{ allowed: true }]);
      expect((await kept.permissions(token, 'acme')).role).toBe('editor');
      const sent = proxy.roundTrips.filter((trip) => trip.sent.startsWith('POST /api/acme/authorize') || trip.sent.startsWith('GET /api/acme/user-role'));
      expect(sent).toHaveLength(4);
      expect(new Set(sent.map((trip) => trip.connection)).size).toBe(1);
    } finally {
      kept.close();
      await proxy.stop();
    }
  });
});

describe('the asking service', () => {
  it('names itself with the service option: the stored refusal of its authorize call names it', async () => {
    const billing = createGatehouse({ baseURL: apiBase(server), service: 'billing' });
    try {
      const token = await server.login('viewer@acme.test');
      expect(await billing.authorize(token, 'acme', [{ model: 'posts', action: 'destroy', id: 1 }])).toEqual([expect.objectContaining({ allowed: false })]);
    } finally {
      billing.close();
    }
    await server.server.decisionStore!.drain();
    const owner = await server.login('owner@acme.test');
    const stored = (await server.api.get('/api/acme/decisions?source=authorize', { token: owner })).body.data;
    expect(stored).toContainEqual(expect.objectContaining({ source: 'authorize', service: 'billing', model: 'posts', action: 'destroy' }));
  });
});

describe('permissions', () => {
  it('answers the viewer granted posts.store as the server does: store refused by PostPolicy', async () => {
    // The issue's own step, through the CLI.
    expect(await runCli(['member', 'permissions', 'acme', 'viewer@acme.test', '--grant', 'posts.store'], server.database.ownerUrl)).toMatchObject({ code: 0 });
    const token = await server.login('viewer@acme.test');
    const permissions = await gatehouse.permissions(token, 'acme');
    expect(permissions.permissions).toContain('posts.store');
    const real = await server.api.post('/api/acme/posts', { token, body: { title: 'From the viewer' } });
    expect(real.status).toBe(403);
    expect(permissions.abilities.posts!.store).toBe(false);
    expect(await call(`${services.express}/acme/posts`, token, { method: 'POST', body: '{}' })).toMatchObject({ status: 403, body: { reason: { policy: 'PostPolicy.create' } } });
    expect((await call(`${services.fastify}/acme/posts`, token, { method: 'POST', body: '{}' })).status).toBe(403);
  });

  it('with maxAge 0, revalidates by ETag and sees a permission change and a revocation on the next call', async () => {
    const token = await server.login('editor@acme.test');
    const first = await gatehouse.permissions(token, 'acme');
    expect(first.abilities.users!.store).toBe(false);
    // Only a 304 hands back the kept answer itself: a fresh 200 is parsed into a new object.
    expect(await gatehouse.permissions(token, 'acme')).toBe(first);
    await grant(server, 'editor@acme.test', 'users.trashed');
    expect((await gatehouse.permissions(token, 'acme')).permissions).toContain('users.trashed');
    await server.api.post('/api/auth/logout', { token });
    await expect(gatehouse.permissions(token, 'acme')).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('with a maxAge, the client’s or the call’s, answers from its cache until the age passes', async () => {
    const cached = createGatehouse({ baseURL: apiBase(server), maxAge: 3600 });
    const token = await server.login('owner@globex.test');
    const first = await cached.permissions(token, 'globex');
    const kept = await gatehouse.permissions(token, 'globex');
    await server.api.post('/api/auth/logout', { token });
    expect(await cached.permissions(token, 'globex')).toBe(first);
    expect(await gatehouse.permissions(token, 'globex', { maxAge: 3600 })).toBe(kept);
    await expect(cached.permissions(token, 'globex', { maxAge: 0 })).rejects.toBeInstanceOf(UnauthenticatedError);
    cached.close();
  });
});

describe('errors and organization paths', () => {
  it('tells each refusal by its kind and status, and serviceStatus answers the service’s caller with it', async () => {
    const token = await server.login('owner@globex.test');
    const refusals = [
      [() => gatehouse.authorize(tampered(token), 'globex', [{ model: 'posts', action: 'index' }]), { kind: 'unauthenticated', status: 401 }],
      [() => gatehouse.authorize(token, 'globex', 'posts' as never), { kind: 'invalid', status: 422 }],
      // A session of the tenant group, at the admin group's routes.
      [() => gatehouse.authorize(token, 'admin', [{ model: 'users', action: 'index' }]), { kind: 'forbidden', status: 403 }],
      [() => gatehouse.permissions(token, 'acme'), { kind: 'invalid', status: 404, message: 'Organization not found' }],
    ] as const;
    for (const [call, refusal] of refusals) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(GatehouseError);
      expect(error).toMatchObject(refusal);
      expect(serviceStatus(error as GatehouseError)).toBe(refusal.status);
    }
  });

  it('sends the organization as the literal path: `acme/../globex` answers for no organization', async () => {
    const token = await server.login('owner@globex.test');
    expect((await gatehouse.permissions(token, 'globex')).role).toBe('owner');
    const refused = await gatehouse.permissions(token, 'acme/../globex').catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ kind: 'invalid', status: undefined });
    expect(serviceStatus(refused as GatehouseError)).toBe(404);
    await expect(gatehouse.authorize(token, 'acme/../globex', [{ model: 'posts', action: 'store' }])).rejects.toMatchObject({ kind: 'invalid' });
    // Unencoded, the `?` would end the path at `globex/user-role`, globex's own answer.
    await expect(gatehouse.permissions(token, 'globex/user-role?')).rejects.toMatchObject({ kind: 'invalid', status: 404 });
  });
});
