import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idOf, postId, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// Issue 35: explain names the record condition that admitted or excluded a record, gives a
// list's compiled condition, and says why one record is or is not in the list.

let server: TestServer;
let owner: string;
let contributor: string;
let contributorId: number;

beforeAll(async () => {
  server = await startDataServer();
  [owner, contributor] = await Promise.all([server.login('owner@acme.test'), server.login('contributor@acme.test')]);
  contributorId = await idOf(server, 'users', 'email', 'contributor@acme.test');
});

afterAll(() => server.close());

const explain = (body: Record<string, unknown>, token = owner) => server.api.post('/api/acme/explain', { token, body: { user_id: contributorId, ...body } });
const asContributor = (body: Record<string, unknown>) => explain(body).then((response) => response.body);

describe('explain with record conditions', () => {
  it('names the show condition a hidden draft falls outside of, and tells the member only their 404', async () => {
    const draft = await postId(server, 'Hiring plan');
    const decision = await asContributor({ model: 'posts', action: 'show', id: draft });
    expect(decision).toMatchObject({ allowed: false, gate: 'record', status: 404 });
    expect(decision.checks.at(-1)).toEqual({
      gate: 'record',
      passed: false,
      detail: "outside the member's record conditions: matches none of posts.show:visible",
      record: 'outside_condition',
      conditions: ['posts.show:visible'],
    });
    const own = await server.api.post('/api/acme/explain', { token: contributor, body: { model: 'posts', action: 'show', id: draft } });
    expect(own.body.checks.at(-1)).toEqual({ gate: 'record', passed: false, detail: 'not found', record: 'not_found' });
  });

  it('names the condition that admitted a record and the one an action falls outside of, agreeing with the request', async () => {
    const published = await postId(server, 'Welcome to Acme');
    const decision = await asContributor({ model: 'posts', action: 'update', id: published });
    const real = await server.api.request('PATCH', `/api/acme/posts/${published}`, { token: contributor, body: { title: 'x' } });
    expect({ status: decision.status, gate: decision.gate }).toEqual({ status: real.status, gate: real.body.reason.gate });
    expect(decision.checks.find((check: { gate: string }) => check.gate === 'record')).toMatchObject({ passed: true, record: 'visible', condition: 'posts.show:visible' });
    expect(decision.checks.at(-1)).toMatchObject({ gate: 'policy', passed: false, detail: 'matches none of posts.update:own', conditions: ['posts.update:own'] });

    const mine = (await server.api.post('/api/acme/posts', { token: contributor, body: { title: 'Mine', status: 'draft' } })).body.id as number;
    const allowed = await asContributor({ model: 'posts', action: 'update', id: mine });
    expect(allowed).toMatchObject({ allowed: true, status: 200 });
    expect(allowed.checks.find((check: { gate: string }) => check.gate === 'policy')).toMatchObject({ passed: true, condition: 'posts.update:own' });
  });

  it("gives a list's compiled condition, and why a record is or is not in it, never a word about another organization's", async () => {
    const list = await asContributor({ model: 'posts', action: 'index' });
    expect(list).toMatchObject({ allowed: true, status: 200 });
    const plan = list.checks.find((check: { gate: string }) => check.gate === 'policy').plan;
    expect(plan.kind).toBe('conditional');
    expect(JSON.stringify(plan.condition)).toContain('published');

    const draft = await asContributor({ model: 'posts', action: 'index', id: await postId(server, 'Hiring plan') });
    expect(draft.checks.at(-1)).toEqual({
      gate: 'record',
      passed: true,
      detail: "not in the list: outside the member's record conditions: matches none of posts.index:visible",
      record: 'outside_condition',
      conditions: ['posts.index:visible'],
    });
    const published = await asContributor({ model: 'posts', action: 'index', id: await postId(server, 'Welcome to Acme') });
    expect(published.checks.at(-1)).toMatchObject({ record: 'visible', detail: 'in the list: matches posts.index:visible', condition: 'posts.index:visible' });
    const foreign = await asContributor({ model: 'posts', action: 'index', id: await postId(server, 'Globex secrets') });
    expect(foreign.checks.at(-1)).toEqual({ gate: 'record', passed: true, detail: 'not in the list: no such record', record: 'missing' });
    const none = await asContributor({ model: 'posts', action: 'index', id: 999_999 });
    expect(none.checks.at(-1)).toEqual(foreign.checks.at(-1));
  });

  it('names the conditioned deny that took a record away', async () => {
    const editorId = await idOf(server, 'users', 'email', 'editor@acme.test');
    const editor = await server.login('editor@acme.test');
    const own = (await server.api.post('/api/acme/posts', { token: editor, body: { title: 'Editor draft', status: 'draft' } })).body.id as number;
    expect((await server.api.request('PATCH', `/api/acme/members/${editorId}`, { token: owner, body: { denied_permissions: ['posts.update:own'] } })).status).toBe(200);
    const decision = (await explain({ user_id: editorId, model: 'posts', action: 'update', id: own })).body;
    expect(decision).toMatchObject({ allowed: false, gate: 'policy', status: 403 });
    expect(decision.checks.at(-1)).toMatchObject({ gate: 'policy', passed: false, detail: 'excluded by !posts.update:own', condition: '!posts.update:own' });
  });
});

describe('explain of a trashed record outside the record conditions', () => {
  it('says it is in the trash, not hidden by a scope the model does not have', async () => {
    const draft = await postId(server, 'Security review');
    expect((await server.api.delete(`/api/acme/posts/${draft}`, { token: owner })).status).toBe(204);
    const decision = await asContributor({ model: 'posts', action: 'update', id: draft });
    expect(decision).toMatchObject({ allowed: false, gate: 'record', status: 404 });
    expect(decision.checks.at(-1)).toMatchObject({ gate: 'record', passed: false, record: 'trashed' });
  });
});
