import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Gatehouse } from '@gatehouse/node';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../harness/cli.js';
import { REPOSITORY } from '../../harness/packed-packages.js';
import { readTutorial, type Tutorial } from '../support/readme-tutorial.js';
import { startDataServer } from '../server/support/data-server.js';
import type { TestServer } from '../server/support/test-server.js';
import { apiBase, call, tampered, urlOf } from './support.js';

// Issue 22: the billing service of docs/guides/other-services.md, its files and its command as
// printed, against a real Gatehouse.

const PAGE = 'docs/guides/other-services.md';
// Inside the repository, so the guide's imports resolve to the workspace's packages.
const folder = join(REPOSITORY, 'tests', 'node', `.guide-${process.pid}`);

let server: TestServer;
let tutorial: Tutorial;
let billing: Server;
let service: Gatehouse;

/** `gatehouse …` of a shell block, its single-quoted words unquoted. */
const words = (command: string) => (command.match(/'[^']*'|\S+/g) ?? []).map((word) => word.replace(/^'|'$/g, ''));

beforeAll(async () => {
  [server, tutorial] = await Promise.all([startDataServer(), readTutorial(PAGE, 'A billing service with its own policies')]);
  for (const [path, text] of tutorial.files) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), text);
  }
  process.env.GATEHOUSE_URL = apiBase(server);
  const module = (await import(pathToFileURL(join(folder, 'billing', 'server.ts')).href)) as { app: Express; gatehouse: Gatehouse };
  service = module.gatehouse;
  billing = module.app.listen(0, '127.0.0.1');
  await once(billing, 'listening');
});

afterAll(async () => {
  billing?.close();
  service?.close();
  await rm(folder, { recursive: true, force: true });
  await server?.close();
});

describe('the guide’s billing service', () => {
  it('runs InvoicePolicy on invoices.* granted in Gatehouse', async () => {
    expect([...tutorial.files.keys()]).toEqual(['billing/invoice-policy.ts', 'billing/server.ts']);
    const [grant] = tutorial.shell.flat();
    const [program, ...args] = words(grant!);
    expect(program).toBe('gatehouse');
    expect(await runCli(args, server.database.ownerUrl)).toMatchObject({ code: 0 });

    const url = urlOf(billing);
    const editor = await server.login('editor@acme.test');
    const viewer = await server.login('viewer@acme.test');
    const body = (amount: number) => ({ method: 'POST', body: JSON.stringify({ amount }) });
    const created = await call(`${url}/acme/invoices`, editor, body(80));
    expect(created).toEqual({ status: 201, body: { id: 2, amount: 80, status: 'draft' } });
    expect((await call(`${url}/acme/invoices`, viewer, body(5))).status).toBe(403);
    expect((await call(`${url}/acme/invoices`, tampered(editor), body(5))).status).toBe(401);

    const patch = { method: 'PATCH', body: JSON.stringify({ amount: 99 }) };
    expect((await call(`${url}/acme/invoices/2`, editor, patch)).status).toBe(200);
    expect((await call(`${url}/acme/invoices/1`, editor, patch)).status).toBe(403);
    expect((await call(`${url}/acme/invoices/2`, viewer, patch)).status).toBe(403);
  });
});
