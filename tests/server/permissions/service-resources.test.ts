import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatehouseRun } from '../../support/gatehouse-in-process.js';
import { idOf, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// Resources of other services: declared in the configuration (billing's invoices) or registered
// at run time (payouts), offered in the permission catalog, granted like a model's, answered by
// POST {t}/authorize, whose refusals are stored and counted.

let server: TestServer;
const tokens = {} as Record<'owner' | 'editor' | 'viewer' | 'admin', string>;

beforeAll(async () => {
  server = await startDataServer({
    services: { billing: { resources: { invoices: ['index', 'show', 'store', 'update', 'approve'] } } },
    decisionLog: { store: 'database' },
    metrics: { port: 0, host: '127.0.0.1' },
  });
  for (const who of ['owner', 'editor', 'viewer'] as const) tokens[who] = await server.login(`${who}@acme.test`);
  tokens.admin = await server.login('admin@example.test', { path: '/api/admin/auth/login' });
});
afterAll(() => server.close());

const catalog = async () => (await server.api.get('/api/acme/permission-catalog', { token: tokens.viewer })).body.data.filter((entry: { kind: string }) => entry.kind === 'service');
const register = (resource: string, body: unknown, token = tokens.admin) => server.api.request('PUT', `/api/admin/service-resources/${resource}`, { token, body });
const authorize = (token: string, checks: unknown[], headers: Record<string, string> = {}) => server.api.post('/api/acme/authorize', { token, body: { checks }, headers });
const decisionsTotal = async (gate: string) => {
  const text = await (await fetch(server.server.metricsUrl!)).text();
  return Number(text.split('\n').find((line) => line.startsWith(`gatehouse_decisions_total{gate="${gate}",outcome="denied"} `))?.split(' ').at(-1) ?? 0);
};

describe('resources of other services', () => {
  it('are offered by the permission catalog, from the configuration and once registered, on every instance', async () => {
    expect(await catalog()).toEqual([{ resource: 'invoices', kind: 'service', service: 'billing', actions: ['index', 'show', 'store', 'update', 'approve'] }]);
    expect(await register('payouts', { service: 'billing', actions: ['index', 'approve'] })).toMatchObject({ status: 201, body: { resource: 'payouts', service: 'billing', actions: ['index', 'approve'], origin: 'database' } });
    expect(await register('payouts', { service: 'billing', actions: ['index', 'approve', 'cancel'] })).toMatchObject({ status: 200 });
    expect(await catalog()).toContainEqual({ resource: 'payouts', kind: 'service', service: 'billing', actions: ['index', 'approve', 'cancel'] });
    const listed = await server.api.get('/api/admin/service-resources', { token: tokens.admin });
    expect(listed.body.data.map((entry: { resource: string; origin: string }) => `${entry.resource}:${entry.origin}`)).toEqual(['invoices:config', 'payouts:database']);
  });

  it('refuses to register a model, an administration resource, a configured resource or a bad name, and anyone without service_resources.update', async () => {
    const problem = async (resource: string, body: unknown) => {
      const response = await register(resource, body);
      expect(response.status).toBe(422);
      return Object.values(response.body.errors as Record<string, string[]>)[0]![0];
    };
    expect(await problem('posts', { service: 'billing', actions: ['index'] })).toBe('posts is a model of this service.');
    expect(await problem('memberships', { service: 'billing', actions: ['index'] })).toBe('memberships is an administration resource of this service.');
    expect(await problem('service_resources', { service: 'billing', actions: ['update'] })).toBe('service_resources is an administration resource of this service.');
    expect(await problem('invoices', { service: 'billing', actions: ['index'] })).toBe('invoices is declared in the configuration: change it there.');
    expect(await problem('Bad.Name', { service: 'billing', actions: ['index'] })).toMatch(/^The resource must be lower-case letters/);
    expect(await problem('refunds', { service: 'billing', actions: [] })).toBe('The actions field must name at least one action.');
    expect(await problem('refunds', { service: 'billing', actions: ['*'] })).toMatch(/^Each action must be letters/);
    expect((await register('refunds', { service: 'billing', actions: ['index'] }, tokens.owner)).status).toBe(403);
    expect((await server.api.delete('/api/admin/service-resources/refunds', { token: tokens.admin })).status).toBe(404);
  });

  it('are granted in a role like a model, and POST {t}/authorize answers them by the permissions', async () => {
    const editorRole = await idOf(server, 'roles', 'slug', 'editor');
    const current = (await server.api.get(`/api/acme/roles/${editorRole}/permissions`, { token: tokens.owner })).body.permissions;
    expect((await server.api.request('PUT', `/api/acme/roles/${editorRole}/permissions`, { token: tokens.owner, body: { permissions: [...current, 'invoices.approve', 'payouts.*'] } })).status).toBe(200);
    const checks = [
      { model: 'invoices', action: 'approve', id: 41 },
      { model: 'invoices', action: 'index' },
      { model: 'payouts', action: 'cancel' },
      { model: 'invoices', action: 'refund' },
    ];
    expect((await authorize(tokens.editor, checks)).body.results).toEqual([
      { allowed: true },
      { allowed: false, message: 'This action is unauthorized.', reason: { gate: 'policy', permission: 'invoices.index' } },
      { allowed: true },
      { allowed: false, message: 'Unknown action: refund.', reason: { gate: 'action' } },
    ]);
  });

  it('stores authorize refusals in the decision log with the asking service, and counts them', async () => {
    const before = await decisionsTotal('policy');
    const refused = await authorize(tokens.viewer, [{ model: 'invoices', action: 'approve', id: 41 }, { model: 'posts', action: 'index' }], { 'X-Gatehouse-Service': 'billing' });
    expect(refused.body.results.map((result: { allowed: boolean }) => result.allowed)).toEqual([false, true]);
    await server.server.decisionStore!.drain();
    const stored = (await server.api.get('/api/acme/decisions?source=authorize', { token: tokens.owner })).body.data;
    expect(stored.filter((row: { request_id: string }) => row.request_id === refused.headers['x-request-id'])).toEqual([
      expect.objectContaining({ source: 'authorize', service: 'billing', model: 'invoices', action: 'approve', record_id: '41', status: 403, gate: 'policy', permission: 'invoices.approve', route: '/api/:organization/authorize' }),
    ]);
    expect(await decisionsTotal('policy')).toBe(before + 1);

    expect(await authorize(tokens.viewer, [], { 'X-Gatehouse-Service': 'Billing Service' })).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^Invalid X-Gatehouse-Service header: /) } });
  });

  it('are explained by POST {t}/explain and gatehouse explain as authorize decides them', async () => {
    const viewerId = await idOf(server, 'users', 'email', 'viewer@acme.test');
    const explain = (body: Record<string, unknown>) => server.api.post('/api/acme/explain', { token: tokens.owner, body: { user_id: viewerId, ...body } });
    const agree = async (check: Record<string, unknown>, asked: Record<string, unknown> = check) => {
      const [result] = (await authorize(tokens.viewer, [asked])).body.results;
      const explained = (await explain(check)).body;
      expect({ allowed: explained.allowed, ...(explained.reason === undefined ? {} : { reason: explained.reason }) }).toEqual({ allowed: result.allowed, ...(result.reason === undefined ? {} : { reason: result.reason }) });
      return explained;
    };
    expect(await agree({ model: 'invoices', action: 'approve' })).toMatchObject({
      allowed: false,
      gate: 'policy',
      status: 403,
      reason: { gate: 'policy', permission: 'invoices.approve' },
      request: { method: 'POST', route: '/api/acme/authorize', model: 'invoices', action: 'approve' },
      checks: expect.arrayContaining([{ gate: 'policy', passed: false, detail: 'lacks invoices.approve', permission: expect.objectContaining({ permission: 'invoices.approve', allowed: false }) }]),
    });
    await server.sql(`UPDATE user_roles SET granted_permissions = granted_permissions || '{invoices.*}', denied_permissions = denied_permissions || '{invoices.approve}' WHERE user_id = $1`, [viewerId]);
    try {
      expect(await agree({ model: 'invoices', action: 'show', id: 7 })).toMatchObject({ allowed: true, gate: null, status: 200 });
      const denied = await agree({ model: 'invoices', action: 'approve' });
      expect(denied).toMatchObject({ reason: { gate: 'policy', permission: 'invoices.approve', denied: true } });
      expect(denied.checks.at(-1).permission.denied_by).toEqual([{ source: 'denied', entry: 'invoices.approve' }]);
      expect(await agree({ model: 'invoices', action: 'refund' })).toMatchObject({ allowed: false, gate: 'action', status: 422, checks: expect.arrayContaining([{ gate: 'action', passed: false, detail: 'Unknown action: refund.' }]) });
      expect(await agree({ model: 'invoices', action: 'show', fields: ['total'] }, { model: 'invoices', action: 'show', fields: { read: ['total'] } })).toMatchObject({ allowed: false, gate: 'request', status: 422, reason: { gate: 'request' } });
      expect(await agree({ model: 'payouts', action: 'cancel' })).toMatchObject({ allowed: false, reason: { gate: 'policy', permission: 'payouts.cancel' } });
      // The service's own ids, which authorize takes as text (for the decision log), are explained too.
      expect(await agree({ model: 'invoices', action: 'approve', id: 'INV-2026-41' })).toMatchObject({ allowed: false, request: { model: 'invoices', action: 'approve', id: 'INV-2026-41' } });
      expect(await agree({ model: 'invoices', action: 'show', id: 'INV-2026-41' })).toMatchObject({ allowed: true });
    } finally {
      await server.sql(`UPDATE user_roles SET granted_permissions = array_remove(granted_permissions, 'invoices.*'), denied_permissions = array_remove(denied_permissions, 'invoices.approve') WHERE user_id = $1`, [viewerId]);
    }
    expect((await explain({ model: 'posts', action: 'approve' })).status).toBe(422);
    expect(await explain({ model: 'posts', action: 'show', id: 'INV-2026-41' })).toMatchObject({ status: 422, body: { errors: { id: ['The id field must be a positive integer.'] } } });

    const cli = await gatehouseRun(server.database.ownerUrl, ['explain', '--org', 'acme', '--user', 'viewer@acme.test', 'payouts.cancel', '--json']);
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ allowed: false, gate: 'policy', reason: { gate: 'policy', permission: 'payouts.cancel' } });
  });

  it('are registered, listed and removed with gatehouse resources', async () => {
    const gatehouse = (...args: string[]) => gatehouseRun(server.database.ownerUrl, ['resources', ...args]);
    expect(await gatehouse('register', 'shipping', 'parcels', '--actions', 'index,show,ship')).toMatchObject({ code: 0, stdout: 'Registered parcels of shipping: index, show, ship.\n' });
    expect(await catalog()).toContainEqual({ resource: 'parcels', kind: 'service', service: 'shipping', actions: ['index', 'show', 'ship'] });
    expect((await gatehouse('list')).stdout).toContain('parcels  shipping  index, show, ship  (database)\n');
    expect(await gatehouse('register', 'shipping', 'memberships', '--actions', 'index')).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('memberships is an administration resource of this service.') });
    expect(await gatehouse('remove', 'parcels')).toMatchObject({ code: 0 });
    expect(await catalog()).not.toContainEqual(expect.objectContaining({ resource: 'parcels' }));
  });
});
