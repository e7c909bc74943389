import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDataServer } from '../support/data-server.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

interface Document {
  openapi: string;
  paths: Record<string, Record<string, unknown> & { servers?: { url: string }[] }>;
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

  it.each([
    ['/api/health', ['get']],
    ['/api/ready', ['get']],
    ['/api/{organization}/posts', ['get', 'post']],
    ['/api/tenant/{organization}/posts/{id}', ['delete', 'get', 'patch', 'put']],
    ['/api/{organization}/nested', ['post']],
    ['/api/admin/organizations', ['get', 'post']],
    ['/api/admin/users/{id}', ['delete', 'get', 'patch', 'put']],
    ['/api/public/{organization}/posts/{id}/force-delete', ['delete']],
    // The tenant-only operations answer these before the data routes do (DESIGN.md 5).
    ['/api/{organization}/organizations', ['post']],
    ['/api/{organization}/organizations/{id}', ['delete', 'get', 'patch', 'put']],
    ['/api/{organization}/roles', ['post']],
    ['/api/admin/posts', []],
    ['/api/admin/comments', []],
  ])('%s: %j', (path, expected) => {
    expect(methods(path)).toEqual(expected);
  });

  it('puts a domain group’s paths on its host', () => {
    expect(document.paths['/api/posts']?.servers).toEqual([
      { url: 'https://{organization}.example.test', variables: { organization: { default: 'organization', description: 'The organization slug.' } } },
    ]);
  });

  it('is not served without registered models', async () => {
    const plain = await startTestServer();
    try {
      expect((await plain.api.get('/api/openapi.json')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
