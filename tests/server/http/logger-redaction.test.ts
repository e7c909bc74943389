import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger, flushLogger } from '../../../server/http/logger.js';
import { requestLogger } from '../../../server/http/request-logger.js';
import type { GatehouseState } from '../../../server/http/state.js';
import { UNOBSERVED } from '../../../server/observability/observability.js';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'gatehouse-log-'));
});

afterAll(() => rm(folder, { recursive: true, force: true }));

// The request line skips the logger's redaction (its fields are all picked, none a secret); every
// other line still passes through it.
it('redacts secrets from any other line of the same logger once the request line has been written', async () => {
  const file = join(folder, 'server.log');
  const logger = createLogger('info', file);
  const app = new Koa<GatehouseState>();
  app.use(requestLogger(logger, UNOBSERVED));
  app.use((ctx) => {
    ctx.body = 'ok';
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await fetch(`http://127.0.0.1:${port}/api/acme/posts?token=query-secret`, { headers: { authorization: 'Bearer header-secret' } });
  server.close();
  logger.warn({ authorization: 'Bearer line-secret', body: { password: 'hunter2', token: 'reset-secret' } }, 'a careless line');
  await flushLogger(logger);
  const lines = (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines.find((line) => line.msg === 'request')).toMatchObject({ method: 'GET', path: '/api/acme/posts', status: 200 });
  expect(lines.find((line) => line.msg === 'a careless line')).toMatchObject({ authorization: '[Redacted]', body: { password: '[Redacted]', token: '[Redacted]' } });
  expect(JSON.stringify(lines)).not.toMatch(/secret|hunter2/);
});
