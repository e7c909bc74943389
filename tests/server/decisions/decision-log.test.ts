import { Writable } from 'node:stream';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDecisionLog } from '../../../server/config/decision-log-config.js';
import { openDatabase } from '../../../server/db/connection/database.js';
import type { DecisionEvent } from '../../../server/decisions/decision-event.js';
import { DecisionStore } from '../../../server/decisions/decision-store.js';
import { gatehouseRun } from '../../support/gatehouse-in-process.js';
import { idOf, postId, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// Refusals in the request log and the decision_logs table, and answers without reasons, on a
// server that stores decisions and has explain.responses switched off.

let server: TestServer;
const lines: Record<string, unknown>[] = [];
const tokens: Record<string, string> = {};
let acmeId: number;
let viewerId: number;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  // Every refusal of this file is stored: the share per organization has its own test (decision-log-share.test.ts).
  server = await startDataServer({ logger: pino({ level: 'info' }, sink), explain: { responses: false }, decisionLog: { store: 'database', organizationPerMinute: 10_000 } });
  for (const who of ['owner', 'viewer', 'editor']) tokens[who] = await server.login(`${who}@acme.test`);
  tokens.globex = await server.login('owner@globex.test');
  acmeId = await idOf(server, 'organizations', 'slug', 'acme');
  viewerId = await idOf(server, 'users', 'email', 'viewer@acme.test');
});

afterAll(() => server.close());

/** The refusal of the viewer's `DELETE /api/acme/posts/{id}`, as logged and stored. */
const viewerDeletion = (requestId: string): DecisionEvent => ({
  event: 'authz.denied',
  source: 'request',
  request_id: requestId,
  user_id: viewerId,
  organization_id: acmeId,
  route_group: 'tenant',
  method: 'DELETE',
  route: '/api/:organization/:model/:id',
  status: 403,
  gate: 'policy',
  permission: 'posts.destroy',
});

const denials = (requestId: unknown) => lines.filter((line) => line.event === 'authz.denied' && line.request_id === requestId);

describe('the request log', () => {
  it('records one authz.denied event per refusal, with the route template and never the path', async () => {
    const id = await postId(server, 'Welcome to Acme');
    const refused = await server.api.delete(`/api/acme/posts/${id}`, { token: tokens.viewer });
    expect(refused.status).toBe(403);
    const [event, ...more] = denials(refused.headers['x-request-id']);
    expect(more).toEqual([]);
    expect(event).toMatchObject(viewerDeletion(String(refused.headers['x-request-id'])));
    expect(JSON.stringify(event)).not.toContain(`/posts/${id}`);
  });

  it('records 401s, unknown organizations and hidden records with their gate, and nothing for an answer that passed', async () => {
    const globexPost = await postId(server, 'Globex secrets');
    const cases = [
      [await server.api.get('/api/acme/posts'), { status: 401, gate: 'authentication', user_id: null }],
      [await server.api.get('/api/globex/posts', { token: tokens.viewer }), { status: 404, gate: 'organization', organization_id: null, user_id: viewerId }],
      [await server.api.get(`/api/acme/posts/${globexPost}`, { token: tokens.viewer }), { status: 404, gate: 'record', organization_id: acmeId }],
    ] as const;
    for (const [response, expected] of cases) expect(denials(response.headers['x-request-id'])).toEqual([expect.objectContaining(expected)]);
    const passed = await server.api.get('/api/acme/posts', { token: tokens.viewer });
    expect(passed.status).toBe(200);
    expect(denials(passed.headers['x-request-id'])).toEqual([]);
  });
});

describe('explain.responses: false', () => {
  it('answers a 403 with its message alone', async () => {
    const refused = await server.api.post('/api/acme/posts', { token: tokens.viewer, body: { title: 'No' } });
    expect(refused).toMatchObject({ status: 403, body: { message: 'This action is unauthorized.' } });
    expect(refused.body).not.toHaveProperty('reason');
  });
});

describe('GET {t}/decisions', () => {
  it("lists the organization's stored refusals, filtered, for holders of decisions.index only", async () => {
    const refused = await server.api.post('/api/acme/posts', { token: tokens.viewer, body: { title: 'Again' } });
    await server.server.decisionStore!.drain();
    const page = await server.api.get(`/api/acme/decisions?gate=policy&user_id=${viewerId}&permission=posts.store`, { token: tokens.owner });
    expect(page.status).toBe(200);
    expect(page.body.data[0]).toMatchObject({ request_id: refused.headers['x-request-id'], user_id: viewerId, method: 'POST', route: '/api/:organization/:model', status: 403, gate: 'policy', permission: 'posts.store', policy: null });
    expect(page.body.data.every((row: { gate: string; user_id: number }) => row.gate === 'policy' && row.user_id === viewerId)).toBe(true);
    expect(page.headers['x-total']).toBe(String(page.body.data.length));

    expect((await server.api.get('/api/acme/decisions?since=2999-01-01', { token: tokens.owner })).body.data).toEqual([]);
    expect((await server.api.get('/api/globex/decisions', { token: tokens.globex })).body.data).toEqual([]);
    const viewer = await server.api.get('/api/acme/decisions', { token: tokens.viewer });
    expect(viewer.status).toBe(403);
    expect((await server.api.get('/api/acme/decisions?gate=nope', { token: tokens.owner })).body).toEqual({ message: 'Invalid query parameter: gate.' });
    expect(await server.api.get('/api/acme/decisions?per_page=101', { token: tokens.owner })).toMatchObject({ status: 400, body: { message: 'per_page must be an integer between 1 and 100.' } });
  });
});

describe('the record a refusal was about', () => {
  it('is stored with its model and action, and is enough to explain the refusal again', async () => {
    const id = await postId(server, 'Welcome to Acme');
    const refused = await server.api.request('PATCH', `/api/acme/posts/${id}`, { token: tokens.viewer, body: { title: 'Mine' } });
    expect(refused.status).toBe(403);
    await server.server.decisionStore!.drain();
    const [row] = (await server.api.get('/api/acme/decisions?model=posts&source=request', { token: tokens.owner })).body.data;
    expect(row).toMatchObject({ request_id: refused.headers['x-request-id'], source: 'request', service: null, model: 'posts', action: 'update', record_id: String(id), route: '/api/:organization/:model/:id' });
    const explained = await server.api.post('/api/acme/explain', { token: tokens.owner, body: { user_id: row.user_id, model: row.model, action: row.action, id: row.record_id } });
    expect(explained).toMatchObject({ status: 200, body: { allowed: false, gate: 'policy', request: { model: 'posts', action: 'update', id } } });
  });

  it('keeps no model for a route that serves none, nor a path segment the group does not serve', async () => {
    const cases = [await server.api.get('/api/acme/decisions', { token: tokens.viewer }), await server.api.get('/api/acme/secrets/12', { token: tokens.viewer })];
    await server.server.decisionStore!.drain();
    for (const response of cases) {
      const [row] = await server.sql('SELECT model, action, record_id FROM decision_logs WHERE request_id = $1', [response.headers['x-request-id']]);
      expect(row ?? { model: null, action: null, record_id: null }).toEqual({ model: null, action: null, record_id: null });
    }
  });
});

describe('gatehouse decisions', () => {
  it("prints an organization's stored refusals newest first, one user's with --user, as many as --last", async () => {
    const editorId = await idOf(server, 'users', 'email', 'editor@acme.test');
    await server.api.get('/api/acme/decisions', { token: tokens.editor });
    await server.api.delete(`/api/acme/posts/${await postId(server, 'Welcome to Acme')}`, { token: tokens.viewer });
    await server.server.decisionStore!.drain();
    const gatehouse = (...args: string[]) => gatehouseRun(server.database.ownerUrl, ['decisions', ...args]);

    const latest = await gatehouse('--org', 'acme', '--last', '2');
    expect(latest.code).toBe(0);
    const [viewerLine, editorLine, ...more] = latest.stdout.trimEnd().split('\n');
    expect(more).toEqual([]);
    expect(viewerLine).toMatch(new RegExp(`^\\S+Z  user ${viewerId}  DELETE /api/:organization/:model/:id  403 policy  posts.destroy$`));
    expect(editorLine).toMatch(new RegExp(`^\\S+Z  user ${editorId}  GET /api/:organization/decisions  403 administration  decisions.index$`));

    const editors = (await gatehouse('--org', 'acme', '--user', 'editor@acme.test')).stdout.trimEnd().split('\n');
    expect(editors[0]).toBe(editorLine);
    expect(editors.every((entry) => entry.includes(`  user ${editorId}  `))).toBe(true);

    expect(await gatehouse('--org', 'nope')).toEqual({ code: 1, stdout: '', stderr: 'No organization has the slug "nope".\n' });
    expect((await gatehouse('--org', 'acme', '--last', 'many')).code).toBe(2);
  });
});

describe('the decision store', () => {
  it('never holds up an answer: with decision_logs locked, a flood of refusals and a successful read all answer, and are written once it is free', async () => {
    const store = server.server.decisionStore!;
    await store.drain();
    const before = store.stats();
    const locker = new pg.Client({ connectionString: server.database.ownerUrl });
    await locker.connect();
    let requestIds: string[];
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE decision_logs IN ACCESS EXCLUSIVE MODE');
      const flood = await Promise.all(Array.from({ length: 40 }, () => server.api.post('/api/acme/posts', { token: tokens.viewer, body: { title: 'Flood' } })));
      expect(flood.map((response) => response.status)).toEqual(flood.map(() => 403));
      expect((await server.api.get('/api/acme/posts', { token: tokens.viewer })).status).toBe(200);
      expect(store.stats().written).toBe(before.written);
      requestIds = flood.map((response) => String(response.headers['x-request-id']));
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    await store.drain();
    expect(store.stats()).toEqual({ queued: 0, written: before.written + 40, dropped: before.dropped, overShare: 0 });
    const [{ count }] = await server.sql('SELECT count(*)::int AS count FROM decision_logs WHERE request_id = ANY($1)', [requestIds]);
    expect(count).toBe(40);
  });

  it('keeps at most queueLimit refusals in memory during a flood, counts the rest as dropped, and writes what it kept', async () => {
    const database = openDatabase({ connectionString: server.database.ownerUrl, maxConnections: 2 });
    try {
      const warnings: string[] = [];
      const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
      const store = new DecisionStore(database.db, resolveDecisionLog({ store: 'database', queueLimit: 50, batchSize: 20, organizationPerMinute: 10_000 }), logger);
      for (let index = 0; index < 1000; index++) store.add(viewerDeletion(`flood-${index}`));
      expect(store.stats()).toEqual({ queued: 50, written: 0, dropped: 950, overShare: 0 });
      // One warning for the flood, not one per dropped refusal.
      expect(warnings).toEqual(['decision log queue full: refusals are dropped until it drains']);
      await store.drain();
      expect(store.stats()).toEqual({ queued: 0, written: 50, dropped: 950, overShare: 0 });
      const [{ count }] = await server.sql("SELECT count(*)::int AS count FROM decision_logs WHERE request_id LIKE 'flood-%'");
      expect(count).toBe(50);
    } finally {
      await database.close();
    }
  });

  it('deletes what is older than retentionDays, in every organization, from its start on, with no refusal to write', async () => {
    const globexId = await idOf(server, 'organizations', 'slug', 'globex');
    const insertOld = (organizationId: number, days: number) =>
      server.sql(`INSERT INTO decision_logs (organization_id, request_id, method, route, status, gate, created_at) VALUES ($1, 'old', 'GET', '/x', 403, 'policy', now() - $2 * interval '1 day')`, [organizationId, days]);
    await insertOld(acmeId, 40);
    await insertOld(globexId, 40);
    await insertOld(acmeId, 5);
    const database = openDatabase({ connectionString: server.database.ownerUrl, maxConnections: 2 });
    try {
      const store = new DecisionStore(database.db, resolveDecisionLog({ store: 'database', retentionDays: 30 }), pino({ level: 'silent' }));
      store.start();
      await store.close();
    } finally {
      await database.close();
    }
    expect(await server.sql("SELECT organization_id FROM decision_logs WHERE request_id = 'old'")).toEqual([{ organization_id: acmeId }]);
  });
});
