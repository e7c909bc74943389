import { describe, expect, it } from 'vitest';
import { demoModels } from '../../../policies/demo-models.js';
import { buildOpenApi } from '../../../server/openapi/build-openapi.js';

const document = buildOpenApi({ title: 'Gatehouse', version: '0.1.0' }, [{ base: '/api/{organization}', models: demoModels }], '/api') as {
  openapi: string;
  paths: Record<string, Record<string, { parameters: { name: string }[]; requestBody?: unknown }>>;
  components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
};

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
});
