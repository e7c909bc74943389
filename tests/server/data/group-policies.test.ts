import type { PolicyUser } from '@gatehouse/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoModels } from '../../../policies/demo-models.js';
import { demoPolicies } from '../../../policies/demo-policies.js';
import { PostPolicy } from '../../../policies/post-policy.js';
import { ACME_HOST, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// Authorization 2, 4 and 5 over HTTP: one policy for a model several groups serve, branching on
// the request's route group, and handed null for a guest.

/**
 * The portal refuses the listing on top of the permission; the public group lists to anyone,
 * skipping the parent, which is exactly how an override bypasses the permission system.
 */
class GroupPostPolicy extends PostPolicy {
  override viewAny(user: PolicyUser | null): boolean {
    if (this.routeGroup === 'public') return true;
    return super.viewAny(user) && this.routeGroup !== 'portal';
  }
}

let server: TestServer;

beforeAll(async () => {
  server = await startDataServer({ data: { models: demoModels, policies: { ...demoPolicies, PostPolicy: GroupPostPolicy } } });
  await server.sql(`INSERT INTO user_roles (user_id, organization_id, role_id, route_group)
    SELECT u.id, o.id, r.id, 'portal' FROM users u, organizations o, roles r
    WHERE u.email = 'editor@acme.test' AND o.slug = 'acme' AND r.slug = 'editor'`);
});

afterAll(() => server.close());

describe('a policy branching on the route group', () => {
  it('answers the same member differently in each group that serves the model', async () => {
    const tenant = await server.login('editor@acme.test');
    const portal = await server.login('editor@acme.test', { host: ACME_HOST });
    expect((await server.api.get('/api/acme/posts', { token: tenant })).status).toBe(200);
    expect(await server.api.get('/api/posts', { token: portal, host: ACME_HOST })).toMatchObject({ status: 403, body: { message: 'This action is unauthorized.' } });
  });

  it('hands a guest null, so the attribute gates give a guest the least', async () => {
    const response = await server.api.get('/api/public/acme/posts?per_page=100');
    expect(response.status).toBe(200);
    expect(response.body.data.length).toBeGreaterThan(0);
    for (const post of response.body.data) expect(post).not.toHaveProperty('internal_notes');
  });
});
