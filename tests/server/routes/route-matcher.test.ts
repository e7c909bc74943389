import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatehouseMiddleware, GatehouseState } from '../../../server/http/state.js';
import { compileRoute, routeMatcher } from '../../../server/route-groups/route-matcher.js';
import type { RouteDefinition } from '../../../server/routes/route-definition.js';
import { placeUngrouped } from '../../../server/routes/route-table.js';
import type { Services } from '../../../server/services.js';

// The matcher replaced a chain of @koa/router instances: the same routes must match the same
// requests, with the same parameters, first match first.
const answer =
  (name: string): GatehouseMiddleware =>
  (ctx) => {
    ctx.body = { name, params: ctx.params, route: (ctx as { _matchedRoute?: unknown })._matchedRoute };
  };
const passOn: GatehouseMiddleware = (_ctx, next) => next();
const ROUTES: [RouteDefinition['method'], string, GatehouseMiddleware[]][] = [
  ['get', '/:org/things/exists', [answer('exists')]],
  ['get', '/:org/:model/computed', [passOn]],
  ['get', '/:org/:model/:id', [answer('show')]],
  ['delete', '/:org/:model/:id', [answer('destroy')]],
  ['get', '/.well-known/key', [answer('key')]],
  // Not made of whole segments: tried whatever the number of segments.
  ['get', '/files/:name.json', [answer('file')]],
];
const definitions = ROUTES.map(([method, path, handlers]): RouteDefinition => ({
  operationId: path,
  method,
  path,
  summary: path,
  tag: 'test',
  access: 'none',
  responses: {},
  errors: [],
  handle: () => handlers,
}));

let urls: { matcher: string; router: string };
const servers: { close(): void }[] = [];

async function serve(use: (app: Koa<GatehouseState>) => void): Promise<string> {
  const app = new Koa<GatehouseState>();
  use(app);
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = { name: 'none' };
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const router = new Router<GatehouseState>({ prefix: '/api' });
  for (const route of definitions) router[route.method](route.path, ...route.handle({} as Services, { group: null, base: '' }));
  urls = {
    router: await serve((app) => app.use(router.routes())),
    matcher: await serve((app) => app.use(routeMatcher(placeUngrouped(definitions, '/api').map((placed) => compileRoute(placed, {} as Services))))),
  };
});
afterAll(() => servers.forEach((server) => server.close()));

describe('the route matcher', () => {
  it('hands a request a route passes on to the next route that matches, with its parameters and template', async () => {
    const response = await fetch(`${urls.matcher}/api/acme/posts/computed`);
    expect(await response.json()).toEqual({ name: 'show', params: { org: 'acme', model: 'posts', id: 'computed' }, route: '/api/:org/:model/:id' });
  });

  it.each([
    ['GET', '/api/acme/posts/7'],
    ['GET', '/api/ACME/Posts/7/'],
    ['HEAD', '/api/acme/posts/7'],
    ['DELETE', '/api/acme/posts/7'],
    ['PUT', '/api/acme/posts/7'],
    ['GET', '/api/acme/things/exists'],
    ['GET', '/api/acme/posts/computed'],
    ['GET', '/api/a%20b/po%2Fsts/%E0%A4%A'],
    ['GET', '/api/.well-known/key'],
    ['GET', '/API/.WELL-KNOWN/KEY'],
    ['GET', '/api/acme/posts/7/extra'],
    ['GET', '/api/acme//7'],
    ['GET', '/api/acme/posts/7//'],
    ['GET', '/api/.well-known/key/'],
    ['GET', '/api/acme/posts'],
    ['GET', '/'],
    ['GET', '/api/files/report.json'],
    ['GET', '/api/files/report.json/'],
  ])('answers %s %s as @koa/router does', async (method, path) => {
    const [router, matcher] = await Promise.all(
      [urls.router, urls.matcher].map(async (url) => {
        const response = await fetch(`${url}${path}`, { method });
        return { status: response.status, body: method === 'HEAD' ? null : await response.json() };
      }),
    );
    expect(matcher).toEqual(router);
  });
});
