import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

let webRoot: string;
let server: TestServer;
const html = { headers: { accept: 'text/html,application/xhtml+xml' } };
// Larger than what loopback's socket buffers take, so leaving mid-download interrupts the sending.
const LARGE_ASSET = 'assets/large-3c4d.js';
const logLines: { msg: string; path?: string }[] = [];
const logger = pino(
  { level: 'debug' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(JSON.parse(chunk.toString('utf8')) as { msg: string });
      done();
    },
  }),
);

beforeAll(async () => {
  webRoot = await mkdtemp(join(tmpdir(), 'gatehouse-pages-'));
  await mkdir(join(webRoot, 'assets'));
  await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>app shell</title>');
  await writeFile(join(webRoot, 'assets/app-1a2b.js'), 'console.log("app")');
  await writeFile(join(webRoot, '.env'), 'SECRET=1');
  await writeFile(join(webRoot, LARGE_ASSET), Buffer.alloc(32 * 1024 * 1024, 'a'));
  server = await startDataServer({ webRoot, logger });
});
afterAll(async () => {
  await server?.close();
  await rm(webRoot, { recursive: true, force: true });
});

describe('the web app at /', () => {
  it('serves index.html at / and for any page path a browser opens', async () => {
    for (const path of ['/', '/posts/12', '/trash']) {
      const response = await server.api.get(path, html);
      expect(response.status, path).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('app shell');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets with a year of caching, and a missing one as 404', async () => {
    const asset = await server.api.get('/assets/app-1a2b.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await server.api.get('/assets/missing.js', html)).status).toBe(404);
  });

  it('never serves hidden files or anything outside its folder: such a path is just another page', async () => {
    for (const path of ['/.env', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc%2fpasswd', '/assets/%2e%2e/.env']) {
      const response = await server.api.get(path, { ...html, rawPath: true });
      expect(String(response.body), path).not.toMatch(/SECRET|root:/);
      if (response.status === 200) expect(response.body).toContain('app shell');
      else expect(response.status, path).toBe(404);
    }
  });

  it('logs a browser leaving mid-download as a debug line, with no stack trace on the terminal', async () => {
    const printed = vi.spyOn(console, 'error');
    try {
      await new Promise<void>((resolve, reject) => {
        const request = get(`${server.api.baseUrl}/${LARGE_ASSET}`, (response) => {
          expect(response.statusCode).toBe(200);
          request.destroy();
          resolve();
        });
        request.on('error', reject);
      });
      await expect
        .poll(() => logLines.find((line) => line.msg === 'the client closed the connection before the answer was sent'), { timeout: 10_000 })
        .toMatchObject({ path: `/${LARGE_ASSET}` });
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });

  it('leaves the API its JSON answers', async () => {
    const unknown = await server.api.get('/api/no-such-route', html);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: expect.any(String) });
    expect((await server.api.post('/', { body: {} })).status).toBe(404);
  });
});

describe('the API reference at /api/docs', () => {
  it('is an HTML page that loads its assets from Gatehouse and renders /api/openapi.json', async () => {
    const page = await server.api.get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('"/api/openapi.json"');
    const assets = [...String(page.body).matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toEqual(['/api/docs/swagger-ui.css', '/api/docs/swagger-ui-bundle.js']);
    for (const asset of assets) expect((await server.api.get(asset)).status, asset).toBe(200);
  });
});

describe('the reference page and an organization', () => {
  it('keeps docs as a reserved slug, so no organization is shadowed by /api/docs', async () => {
    const token = await server.login('editor@acme.test');
    const created = await server.api.post('/api/organizations', { token, body: { name: 'Docs', slug: 'docs' } });
    expect(created.status).toBe(422);
    expect(created.body.errors).toEqual({ slug: ['The slug is reserved.'] });
  });
});
