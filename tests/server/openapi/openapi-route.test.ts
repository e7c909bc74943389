import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDataServer } from '../support/data-server.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

interface Schema {
  properties?: Record<string, Schema & { enum?: string[]; items?: Schema }>;
  $ref?: string;
}

interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown> & { servers?: { url: string }[] }>;
  components: { schemas: Record<string, Schema> };
}

let server: TestServer;
let document: Document;

beforeAll(async () => {
  server = await startDataServer();
  const response = await server.api.get('/api/openapi.json');
  expect(response.status).toBe(200);
  document = response.body;
});

afterAll(() => server.close());

const methods = (path: string) => Object.keys(document.paths[path] ?? {}).filter((key) => key !== 'servers').sort();

describe('GET /api/openapi.json', () => {
  it('is OpenAPI 3.1, open to anyone', () => {
    expect(document.openapi).toBe('3.1.0');
  });

  it('carries the version of the server that serves it', () => {
    const { version } = JSON.parse(readFileSync(new URL('../../../server/package.json', import.meta.url), 'utf8')) as { version: string };
    expect(document.info).toMatchObject({ title: 'Gatehouse API', version });
  });

  it.each([
    ['/api/health', ['get']],
    ['/api/ready', ['get']],
    ['/api/{organization}/posts', ['get', 'post']],
    ['/api/tenant/{organization}/posts/{id}', ['delete', 'get', 'patch', 'put']],
    ['/api/{organization}/nested', ['post']],
    ['/api/admin/organizations', ['get', 'post']],
    ['/api/admin/users/{id}', ['delete', 'get', 'patch', 'put']],
    ['/api/public/{organization}/posts/{id}/force-delete', ['delete']],
    // The tenant-only operations answer the GETs before the data routes do (DESIGN.md 5).
    ['/api/{organization}/organizations', ['get', 'post']],
    ['/api/{organization}/organizations/{id}', ['delete', 'get', 'patch', 'put']],
    ['/api/{organization}/roles', ['get', 'post']],
    ['/api/{organization}/organizations/exists', ['get']],
    ['/api/auth/login', ['post']],
    ['/api/admin/auth/login', ['post']],
    // Member and role administration, under every base that carries the tenant operations.
    ['/api/{organization}/members', ['get']],
    ['/api/{organization}/members/{id}', ['delete', 'patch']],
    ['/api/{organization}/roles/{id}/permissions', ['get', 'put']],
    ['/api/tenant/{organization}/members/{id}', ['delete', 'patch']],
    ['/api/admin/members', []],
    ['/api/admin/posts', []],
    ['/api/admin/comments', []],
  ])('%s: %j', (path, expected) => {
    expect(methods(path)).toEqual(expected);
  });

  it('answers GET {t}/organizations one way: the tenant operation, not the generic index', async () => {
    expect((document.paths['/api/{organization}/organizations']!.get as { operationId: string }).operationId).toBe('tenant.fetchOrganization');
    const token = await server.login('editor@acme.test');
    const { body } = await server.api.get('/api/acme/organizations?include=users', { token });
    expect(body.data[0].users[0].pivot).toEqual({ role_id: expect.any(Number) });
  });

  it('names the permission of each administration operation', () => {
    expect(document.paths['/api/{organization}/members/{id}']?.patch).toMatchObject({ description: expect.stringContaining('`memberships.update`') });
    expect(document.paths['/api/{organization}/roles/{id}/permissions']?.put).toMatchObject({ description: expect.stringContaining('`roles.update`') });
  });

  it('puts a domain group’s paths on its host', () => {
    expect(document.paths['/api/posts']?.servers).toEqual([
      { url: 'https://{organization}.example.test', description: expect.any(String), variables: { organization: { default: 'acme', description: 'The organization slug.' } } },
    ]);
  });

  it("describes authorize's plans and their condition tree, every key a real answer holds", async () => {
    const { schemas } = document.components;
    const plan = schemas.AuthorizeResults!.properties!.plans!.items!;
    expect(plan.properties!.kind!.enum).toEqual(['always', 'never', 'conditional']);
    const token = await server.login('contributor@acme.test');
    const answer = await server.api.post('/api/acme/authorize', { token, body: { plans: [{ model: 'posts', action: 'update' }, { model: 'posts', action: 'trashed' }] } });
    const [update, trashed] = answer.body.plans;
    // The demo's users: a plan of a model with a recordScope says so.
    const owner = await server.login('owner@acme.test');
    const [scoped] = (await server.api.post('/api/acme/authorize', { token: owner, body: { plans: [{ model: 'users', action: 'index' }] } })).body.plans;
    expect(scoped).toMatchObject({ kind: 'always', scoped: true });
    expect(Object.keys(plan.properties!)).toEqual(expect.arrayContaining([...Object.keys(update), ...Object.keys(trashed), ...Object.keys(scoped)]));
    const condition = schemas[plan.properties!.condition!.$ref!.split('/').at(-1)!]!;
    const nodes = (node: Record<string, unknown>): Record<string, unknown>[] => [node, ...((node.conditions as Record<string, unknown>[] | undefined) ?? []).flatMap(nodes)];
    for (const node of nodes(update.condition)) {
      expect(condition.properties!.op!.enum).toContain(node.op);
      expect(Object.keys(condition.properties!)).toEqual(expect.arrayContaining(Object.keys(node)));
    }
  });

  it('describes the service and its route groups even without registered models', async () => {
    const plain = await startTestServer();
    try {
      const { status, body } = await plain.api.get('/api/openapi.json');
      expect(status).toBe(200);
      expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/auth/login', '/api/{organization}/user-role']));
      expect(Object.keys(body.paths).filter((path) => path.endsWith('/posts'))).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
