import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourcePolicy, type RecordConditions } from '@gatehouse/engine';
import { demoModels } from '../../../policies/demo-models.js';
import { demoPolicies } from '../../../policies/demo-policies.js';
import { PostPolicy } from '../../../policies/post-policy.js';
import { idOf, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// Issue 35, with policies of an application's own: a role's conditions (`roles.update:minor`) and
// a listing opened by code (`viewAny`) meet the routes and plans as the requests do.

class MinorRolePolicy extends ResourcePolicy {
  static override conditions = { minor: { slug: { nin: ['owner', 'editor'] } } } satisfies RecordConditions;
}

/** The posts' list is open to every member, whatever they hold: the listing's gate is code. */
class OpenListPostPolicy extends PostPolicy {
  override viewAny(): boolean {
    return true;
  }
}

let server: TestServer;
let owner: string;

beforeAll(async () => {
  server = await startDataServer({ data: { models: demoModels, policies: { ...demoPolicies, RolePolicy: MinorRolePolicy, PostPolicy: OpenListPostPolicy } } });
  owner = await server.login('owner@acme.test');
});

afterAll(() => server.close());

// The routes outside the model policies (here a role's permissions, `roles.show` and
// `roles.update`) check a permission, not a record, so a conditioned grant of it does not count
// there, as in a policy's `hasPermission`: `roles.update:minor` must not open every role.
describe('a conditioned grant on an administration route', () => {
  it("opens neither the editor role's permissions nor a role its condition matches", async () => {
    const contributorId = await idOf(server, 'users', 'email', 'contributor@acme.test');
    const granted = await server.api.request('PATCH', `/api/acme/members/${contributorId}`, { token: owner, body: { granted_permissions: ['roles.show:minor', 'roles.update:minor'] } });
    expect(granted.status).toBe(200);
    const contributor = await server.login('contributor@acme.test');
    const [editorRole, adminRole] = await Promise.all([idOf(server, 'roles', 'slug', 'editor'), idOf(server, 'roles', 'slug', 'admin')]);

    const shown = await server.api.get(`/api/acme/roles/${editorRole}/permissions`, { token: contributor });
    expect([shown.status, shown.body.reason]).toEqual([403, { gate: 'administration', permission: 'roles.show' }]);
    const changed = await server.api.request('PUT', `/api/acme/roles/${adminRole}/permissions`, { token: contributor, body: { permissions: ['comments.index'] } });
    expect([changed.status, changed.body.reason]).toEqual([403, { gate: 'administration', permission: 'roles.update' }]);
    expect((await server.api.get(`/api/acme/roles/${adminRole}/permissions`, { token: owner })).body.permissions).toEqual([]);
  });
});

describe('a listing its policy opens by code', () => {
  it("is planned as the list reads it: every post, for a member who holds no posts.index", async () => {
    const editorId = await idOf(server, 'users', 'email', 'editor@acme.test');
    const denied = await server.api.request('PATCH', `/api/acme/members/${editorId}`, { token: owner, body: { denied_permissions: ['posts.index'] } });
    expect(denied.status).toBe(200);
    const editor = await server.login('editor@acme.test');
    const list = await server.api.get('/api/acme/posts?per_page=100', { token: editor });
    expect([list.status, list.headers['x-total']]).toEqual([200, String((await server.sql("SELECT id FROM posts WHERE organization_id = (SELECT id FROM organizations WHERE slug = 'acme') AND deleted_at IS NULL")).length)]);
    const asked = await server.api.post('/api/acme/authorize', { token: editor, body: { plans: [{ model: 'posts', action: 'index' }] } });
    expect(asked.body.plans).toEqual([{ model: 'posts', action: 'index', kind: 'always' }]);
    const explained = await server.api.post('/api/acme/explain', { token: owner, body: { user_id: editorId, model: 'posts', action: 'index', id: list.body.data[0].id } });
    expect(explained.body.checks.find((check: { gate: string }) => check.gate === 'policy').plan).toEqual({ kind: 'always' });
    expect(explained.body.checks.at(-1)).toMatchObject({ gate: 'record', record: 'visible', detail: 'in the list' });
  });
});
