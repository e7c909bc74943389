import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
let editor: string;
let viewer: string;
let owner: string;
let globexOwner: string;

beforeAll(async () => {
  server = await startTestServer();
  editor = await server.login('editor@acme.test');
  viewer = await server.login('viewer@acme.test');
  owner = await server.login('owner@acme.test');
  globexOwner = await server.login('owner@globex.test');
});

afterAll(() => server.close());

describe('GET {t}/organizations', () => {
  it('returns the organization with its users (pivot role_id) for a member allowed to index users', async () => {
    const response = await server.api.get('/api/acme/organizations?filter[slug]=acme&include=users', { token: editor });
    expect(response.status).toBe(200);
    const [organization] = response.body.data;
    expect(organization).toMatchObject({ name: 'Acme Corporation', slug: 'acme' });
    expect(organization.users.map((user: { email: string }) => user.email)).toEqual(['owner@acme.test', 'editor@acme.test', 'viewer@acme.test', 'contributor@acme.test']);
    const [editorRole] = await server.sql("SELECT id FROM roles WHERE slug = 'editor'");
    expect(organization.users[1]).toEqual({ id: expect.any(Number), name: 'Eddie Editor', email: 'editor@acme.test', pivot: { role_id: editorRole.id } });
    expect(organization).not.toHaveProperty('roles');
  });

  it('includes roles for a caller allowed to index them', async () => {
    const response = await server.api.get('/api/acme/organizations?include=users,roles', { token: owner });
    expect(response.body.data[0].roles.map((role: { slug: string }) => role.slug)).toEqual(['owner', 'editor', 'viewer', 'admin', 'contributor']);
  });

  it('answers an empty list when the filter does not match the organization', async () => {
    const response = await server.api.get('/api/acme/organizations?filter[slug]=globex', { token: editor });
    expect(response.body).toEqual({ data: [] });
  });

  it('rejects an include the caller may not index with 403', async () => {
    const response = await server.api.get('/api/acme/organizations?include=users', { token: viewer });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: 'You do not have permission to include users.', reason: { gate: 'include', include: 'users', permission: 'users.index' } });
  });

  it('rejects unknown includes and query parameters with 400 naming them', async () => {
    const include = await server.api.get('/api/acme/organizations?include=posts', { token: owner });
    expect(include.status).toBe(400);
    expect(include.body.message).toContain('posts');
    const parameter = await server.api.get('/api/acme/organizations?sort=name', { token: owner });
    expect(parameter.status).toBe(400);
    expect(parameter.body).toEqual({ message: 'Unknown query parameter: sort.' });
  });

  it('answers 404 to a non-member exactly as for a missing organization', async () => {
    const other = await server.api.get('/api/globex/organizations?filter[slug]=globex', { token: editor });
    const missing = await server.api.get('/api/nowhere/organizations', { token: editor });
    expect(other.status).toBe(404);
    expect(other.body).toEqual(missing.body);
  });
});

describe('GET {t}/organizations/exists', () => {
  it('tells any signed-in caller whether the slug is taken, and only members which organization it is', async () => {
    const member = await server.api.get('/api/acme/organizations/exists', { token: editor });
    expect(member.body).toEqual({ exists: true, organization: { id: expect.any(Number), name: 'Acme Corporation', slug: 'acme' } });
    const outsider = await server.api.get('/api/acme/organizations/exists', { token: globexOwner });
    expect(outsider.status).toBe(200);
    expect(outsider.body).toEqual({ exists: true });
    const free = await server.api.get('/api/fresh-slug/organizations/exists', { token: editor });
    expect(free.body).toEqual({ exists: false });
  });

  it('needs a signed-in caller', async () => {
    expect((await server.api.get('/api/acme/organizations/exists')).status).toBe(401);
  });
});

describe('POST /api/organizations', () => {
  it('creates the organization and makes the caller its owner', async () => {
    const response = await server.api.post('/api/organizations', { token: viewer, body: { name: 'Vera Ventures', slug: 'vera-ventures' } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: expect.any(Number), name: 'Vera Ventures', slug: 'vera-ventures' });

    const role = await server.api.get('/api/vera-ventures/user-role', { token: viewer });
    expect(role.body).toMatchObject({ role: 'owner', permissions: ['*'] });
    const organization = await server.api.get('/api/vera-ventures/organizations?include=users', { token: viewer });
    expect(organization.body.data[0].users).toEqual([expect.objectContaining({ email: 'viewer@acme.test' })]);
    const roles = await server.api.get('/api/vera-ventures/roles', { token: viewer });
    expect(roles.body.data.map((entry: { slug: string }) => entry.slug)).toEqual(['owner', 'editor', 'viewer', 'admin', 'contributor']);
  });

  it('answers 422 for a taken, reserved or malformed slug', async () => {
    const taken = await server.api.post('/api/organizations', { token: editor, body: { name: 'Acme again', slug: 'acme' } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ slug: ['The slug has already been taken.'] });
    const reserved = await server.api.post('/api/organizations', { token: editor, body: { name: 'Admin', slug: 'admin' } });
    expect(reserved.body.errors).toEqual({ slug: ['The slug is reserved.'] });
    const malformed = await server.api.post('/api/organizations', { token: editor, body: { name: 'Bad', slug: 'Bad Slug' } });
    expect(malformed.status).toBe(422);
    const missing = await server.api.post('/api/organizations', { token: editor, body: {} });
    expect(Object.keys(missing.body.errors)).toEqual(['name', 'slug']);
  });

  it('needs a signed-in caller', async () => {
    expect((await server.api.post('/api/organizations', { body: { name: 'Anon', slug: 'anon' } })).status).toBe(401);
  });
});

describe('GET {t}/roles and {t}/user-role', () => {
  it('lists the organization’s roles to any member', async () => {
    const response = await server.api.get('/api/acme/roles', { token: viewer });
    expect(response.body.data[0]).toEqual({ id: expect.any(Number), name: 'Owner', slug: 'owner' });
  });

  it('answers the role, the effective permissions (role ∪ granted − denied) and packed rules', async () => {
    const editorRole = await server.api.get('/api/acme/user-role', { token: editor });
    expect(editorRole.body.role).toBe('editor');
    expect(editorRole.body.permissions).toEqual(expect.arrayContaining(['posts.*', 'comments.*', 'users.index']));
    expect(editorRole.body.permissions).toContain('!posts.forceDelete');
    expect(editorRole.body.rules.length).toBeGreaterThan(0);

    const viewerRole = await server.api.get('/api/acme/user-role', { token: viewer });
    expect(viewerRole.body.permissions).toEqual(['comments.index', 'comments.store', 'posts.index', 'posts.show']);
  });

  it('ignores a role sent by the client', async () => {
    const invite = await server.api.post('/api/acme/invitations', { token: viewer, body: { email: 'x@acme.test', role_id: 1, role: 'owner' } });
    expect(invite.status).toBe(403);
  });
});
