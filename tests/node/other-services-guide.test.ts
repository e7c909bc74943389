import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Gatehouse } from '@gatehouse/node';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../../harness/cli.js';
import { REPOSITORY } from '../../harness/packed-packages.js';
import { commandWords, readTutorial, type Tutorial } from '../support/readme-tutorial.js';
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
/** The guide's shell line, which grants the editor invoices.*: run before any test, which all need it. */
let granted: { program: string | undefined; run: CliRun };

beforeAll(async () => {
  [server, tutorial] = await Promise.all([startDataServer(), readTutorial(PAGE, 'A billing service with its own policies')]);
  for (const [path, text] of tutorial.files) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), text);
  }
  const [program, ...args] = commandWords(tutorial.shell.flat()[0]!);
  granted = { program, run: await runCli(args, server.database.ownerUrl) };
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

// The guide's steps in its order: the last one takes Gatehouse down.
describe('the guide’s billing service', { shuffle: false }, () => {
  const body = (fields: object) => ({ method: 'PATCH', body: JSON.stringify(fields) });
  const create = (amount: number) => ({ method: 'POST', body: JSON.stringify({ amount }) });

  it('runs InvoicePolicy on invoices.* granted in Gatehouse', async () => {
    expect([...tutorial.files.keys()]).toEqual(['billing/invoice-policy.ts', 'billing/server.ts']);
    expect(granted.program).toBe('gatehouse');
    expect(granted.run).toMatchObject({ code: 0 });

    const url = urlOf(billing);
    const editor = await server.login('editor@acme.test');
    const viewer = await server.login('viewer@acme.test');
    const [acme] = await server.sql<{ id: number }>("SELECT id FROM organizations WHERE slug = 'acme'");
    const created = await call(`${url}/acme/invoices`, editor, create(80));
    expect(created).toEqual({ status: 201, body: { id: 1, organizationId: acme!.id, amount: 80, status: 'draft' } });
    expect((await call(`${url}/acme/invoices`, viewer, create(5))).status).toBe(403);
    expect((await call(`${url}/acme/invoices`, tampered(editor), create(5))).status).toBe(401);

    expect((await call(`${url}/acme/invoices/1`, editor, body({ amount: 99 }))).status).toBe(200);
    expect((await call(`${url}/acme/invoices/1`, viewer, body({ amount: 1 }))).status).toBe(403);
    expect((await call(`${url}/acme/invoices/1`, editor, body({ status: 'sent' }))).body).toMatchObject({ amount: 99, status: 'sent' });
    expect((await call(`${url}/acme/invoices/1`, editor, body({ amount: 1 }))).status).toBe(403);
  });

  it('refuses another organization’s invoice, through either organization’s path', async () => {
    const url = urlOf(billing);
    const globexOwner = await server.login('owner@globex.test');
    const theirs = await call(`${url}/globex/invoices`, globexOwner, create(500));
    expect(theirs.status).toBe(201);
    const id = (theirs.body as { id: number }).id;

    const editor = await server.login('editor@acme.test');
    // acme's editor holds invoices.* in acme: through acme's path globex's invoice is not found...
    expect(await call(`${url}/acme/invoices/${id}`, editor, body({ amount: 1 }))).toEqual({ status: 404, body: { message: 'Resource not found' } });
    // ...and through globex's path Gatehouse does not know the organization for them.
    expect((await call(`${url}/globex/invoices/${id}`, editor, body({ amount: 1 }))).status).toBe(404);
    expect((await call(`${url}/globex/invoices/${id}`, globexOwner, body({ amount: 501 }))).body).toMatchObject({ amount: 501 });
  });

  it('answers 503 and lets nothing through once Gatehouse is down, as the guide says', async () => {
    const url = urlOf(billing);
    const editor = await server.login('editor@acme.test');
    expect((await call(`${url}/acme/invoices`, editor, create(1))).status).toBe(201);
    await server.server.close();
    expect(await call(`${url}/acme/invoices`, editor, create(2))).toMatchObject({ status: 503, body: { message: expect.stringMatching(/^Gatehouse cannot be reached/) } });
    expect((await call(`${url}/acme/invoices/1`, editor, body({ amount: 3 }))).status).toBe(503);
  });
});
