import { describe, expect, it } from 'vitest';
import { demoData } from '../../../policies/demo-data.js';
import { registerModels } from '../../../server/models/register-models.js';
import { defineRouteGroups } from '../../../server/models/route-group.js';
import { buildOpenApi } from '../../../server/openapi/build-openapi.js';
import { template } from '../../../server/openapi/path-parameters.js';
import type { Placed, PlacedRouter } from '../../../server/routes/placed-route.js';
import { routeTable } from '../../../server/routes/route-table.js';

const groups = defineRouteGroups([
  { name: 'tenant', prefix: '{organization}', default: true, models: ['posts', 'users'] },
  { name: 'portal', domain: '{organization}.example.test', models: ['posts'] },
  { name: 'admin', prefix: 'admin', tenancy: 'none', models: ['users'] },
  { name: 'public', prefix: 'public/{organization}', auth: false, models: ['posts'] },
]);
const source = { basePath: '/api', groups, models: registerModels(demoData, groups) };
const table = routeTable(source);
const placed = (group: string) => table.groups.find((placement) => placement.group.name === group)!.routes;
const at = (group: string, method: string, path: string) =>
  placed(group).find((route): route is Exclude<Placed, PlacedRouter> => route.kind !== 'router' && route.method === method && route.path === path);

describe('the route table', () => {
  it('tries the main host’s groups with a literal first segment first and the default group last; domain groups apart', () => {
    expect(table.mainHost.map(({ group }) => group.name)).toEqual(['admin', 'public', 'tenant']);
    expect(table.domains.map(({ group }) => group.name)).toEqual(['portal']);
    expect(table.groups.map(({ group }) => group.name)).toEqual(['tenant', 'portal', 'admin', 'public']);
  });

  it('places a group’s route sets before its data routes, and data bases with a literal before /:organization', () => {
    const paths = placed('tenant').map((route) => route.path);
    const index = (path: string) => paths.indexOf(path);
    expect(index('/api/:organization/organizations')).toBeGreaterThanOrEqual(0);
    expect(index('/api/:organization/organizations')).toBeLessThan(index('/api/tenant/:organization/:model'));
    expect(index('/api/tenant/:organization/:model/:id')).toBeLessThan(index('/api/:organization/:model/:id'));
    expect(at('tenant', 'get', '/api/tenant/:organization/:model/:id')?.prefixed).toBe(true);
    expect(at('tenant', 'get', '/api/:organization/:model/:id')?.prefixed).toBe(false);
  });

  it('gives a data route its request context’s statuses, the pool’s and its own', () => {
    expect(at('tenant', 'get', '/api/:organization/:model/:id')?.errors).toEqual([400, 401, 403, 404, 429, 503]);
    expect(at('tenant', 'post', '/api/:organization/:model')?.errors).toEqual([400, 401, 403, 404, 413, 415, 422, 429, 503]);
    expect(at('public', 'get', '/api/public/:organization/:model/:id')?.errors).toEqual([400, 403, 404, 429, 503]);
    expect(at('admin', 'post', '/api/admin/nested')?.errors).toEqual([400, 401, 403, 404, 413, 415, 422, 429, 503]);
  });

  it('is what the OpenAPI document describes, statuses included', () => {
    const document = buildOpenApi({ title: 'Gatehouse', version: '0', ...source }) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const show = at('public', 'get', '/api/public/:organization/:model/:id')!;
    const errors = Object.keys(document.paths[template(show.path.replace(':model', 'posts'))]!.get!.responses).map(Number).filter((status) => status >= 400);
    expect(errors).toEqual(show.errors);
    // Any request can meet the pipeline's 400 (a NUL character) before its route.
    const login = at('tenant', 'post', '/api/auth/login')!;
    expect(Object.keys(document.paths['/api/auth/login']!.post!.responses).map(Number).filter((status) => status >= 400)).toEqual([400, ...login.errors]);
  });
});
