import { describe, expect, it } from 'vitest';
import { demoData } from '../../../policies/demo-data.js';
import { DEMO_ROUTE_GROUPS } from '../../../policies/route-groups.js';
import { MAX_NESTED_OPERATIONS } from '../../../server/data/nested-operations.js';
import { registerModels } from '../../../server/models/register-models.js';
import { buildOpenApi } from '../../../server/openapi/build-openapi.js';
import { defineRouteGroups } from '../../../server/models/route-group.js';
import { UNGROUPED_ROUTES } from '../../../server/openapi/document-routes.js';
import { placeUngrouped } from '../../../server/routes/route-table.js';

interface Operation {
  operationId: string;
  parameters: { name: string; in: string }[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  security?: unknown[];
}

const groups = defineRouteGroups(DEMO_ROUTE_GROUPS);
const document = buildOpenApi({ title: 'Gatehouse', version: '0.1.0', basePath: '/api', groups, models: registerModels(demoData, groups) }) as {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties: Record<string, { maxItems?: number }>; required?: string[] }>; securitySchemes: Record<string, unknown> };
};
const operations = Object.values(document.paths).flatMap((item) => Object.entries(item).filter(([method]) => method !== 'servers').map(([, operation]) => operation));

describe('buildOpenApi', () => {
  it('describes every contract endpoint of a soft-deleting model', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/api/{organization}/posts')).sort()).toEqual([
      '/api/{organization}/posts',
      '/api/{organization}/posts/computed',
      '/api/{organization}/posts/nested',
      '/api/{organization}/posts/trashed',
      '/api/{organization}/posts/{id}',
      '/api/{organization}/posts/{id}/audit',
      '/api/{organization}/posts/{id}/force-delete',
      '/api/{organization}/posts/{id}/restore',
    ]);
  });

  it('offers trash and audit endpoints only for models that keep them', () => {
    expect(document.paths['/api/{organization}/comments/trashed']).toBeUndefined();
    expect(document.paths['/api/{organization}/comments/{id}/audit']).toBeUndefined();
    expect(document.paths['/api/{organization}/comments/{id}']).toBeDefined();
  });

  it('lists the registered filters, path parameters and the body schema', () => {
    const index = document.paths['/api/{organization}/posts']!;
    expect(index.get!.parameters.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['organization', 'filter[status]', 'filter[author_id]', 'sort', 'search', 'include', 'fields[posts]', 'page', 'per_page']),
    );
    expect(index.post!.requestBody).toMatchObject({ content: { 'application/json': { schema: { required: ['title'] } } } });
  });

  it('never describes undeclared columns such as the password hash', () => {
    expect(Object.keys(document.components.schemas.users!.properties).sort()).toEqual(['created_at', 'email', 'id', 'name', 'updated_at']);
  });

  it.each([
    ['/api/health', 'get', 'health'],
    ['/api/.well-known/paseto-public-key', 'get', 'publicKey'],
    ['/api/public-key', 'get', 'listPublicKeys'],
    ['/api/{organization}/authorize', 'post', 'tenant.authorize'],
    ['/api/invitations/accept', 'post', 'acceptInvitation'],
    ['/api/auth/login', 'post', 'tenant.login'],
    ['/api/tenant/auth/logout', 'post', 'tenant.prefixed.logout'],
    ['/api/admin/auth/password/reset', 'post', 'admin.passwordReset'],
    ['/api/organizations', 'post', 'tenant.createOrganization'],
    ['/api/{organization}/organizations', 'get', 'tenant.fetchOrganization'],
    ['/api/{organization}/organizations/exists', 'get', 'tenant.organizationExists'],
    ['/api/{organization}/user-role', 'get', 'tenant.userRole'],
    ['/api/admin/user-role', 'get', 'admin.userRole'],
    ['/api/{organization}/invitations/{id}/resend', 'post', 'tenant.resendInvitation'],
    ['/api/tenant/{organization}/invitations/{id}', 'delete', 'tenant.prefixed.cancelInvitation'],
    ['/api/{organization}/nested', 'post', 'tenant.nested'],
    ['/api/admin/users/{id}', 'put', 'admin.users.update'],
  ])('describes %s %s as %s', (path, method, operationId) => {
    expect(document.paths[path]?.[method]?.operationId).toBe(operationId);
  });

  it('gives every operation its own operationId and its path parameters', () => {
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [path, item] of Object.entries(document.paths)) {
      const templated = [...path.matchAll(/\{([a-z_]+)\}/g)].map((match) => match[1]);
      for (const operation of Object.values(item)) expect(operation.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name), path).toEqual(templated);
    }
  });

  it('describes the bearer scheme, the open routes, and the error body of every refusal', () => {
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(document.paths['/api/auth/login']!.post!.security).toEqual([]);
    expect(document.paths['/api/{organization}/posts']!.get!.security).toBeUndefined();
    expect(document.paths['/api/{organization}/posts']!.get!.responses['401']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(document.paths['/api/{organization}/posts']!.post!.responses['422']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/ValidationError' });
  });

  it('lets every route of a group answer its fair share of the pool and the database being out of reach, and the service routes neither', () => {
    const service = new Set(placeUngrouped(UNGROUPED_ROUTES, '/api').map(({ path }) => path));
    const lacking = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => method !== 'servers' && !service.has(path))
        .filter(([, operation]) => !('429' in operation.responses && '503' in operation.responses))
        .map(([method]) => `${method} ${path}`),
    );
    expect(lacking).toEqual([]);
    expect(Object.keys(document.paths['/api/health']!.get!.responses)).not.toContain('429');
    expect(document.paths['/api/auth/login']!.post!.responses['429']).toBeDefined();
  });

  it('takes the nested limit from the nested operations themselves', () => {
    expect(document.components.schemas.NestedOperations!.properties.operations!.maxItems).toBe(MAX_NESTED_OPERATIONS);
  });
});
