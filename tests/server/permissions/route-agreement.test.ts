import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoData } from '../../../policies/demo-data.js';
import { DEMO_USERS } from '../../../policies/seed.js';
import { registerModels } from '../../../server/models/register-models.js';
import { defineRouteGroups } from '../../../server/models/route-group.js';
import type { Placed } from '../../../server/routes/placed-route.js';
import { routeTable } from '../../../server/routes/route-table.js';
import { DATA_ROUTE_GROUPS, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// Issue 36, finding 4: every route of the route table, walked for the demo members. Where
// POST {t}/authorize can be asked about a route's request, its answer is compared with the real
// request's status; every other route is named below with why authorize has no question for it,
// so a route added to the table fails here until it is decided which.

const groups = defineRouteGroups(DATA_ROUTE_GROUPS);
const table = routeTable({ basePath: '/api', groups, models: registerModels(demoData, groups) });
const MEMBERS = DEMO_USERS.filter((user) => user.organization !== null);

// The data routes authorize asks about, by the standard action each stands for (PATCH is update).
const ACTIONS: Readonly<Record<string, string>> = {
  index: 'index',
  trashed: 'trashed',
  show: 'show',
  store: 'store',
  update: 'update',
  patch: 'update',
  destroy: 'destroy',
  restore: 'restore',
  forceDelete: 'forceDelete',
};

/** Routes of the service's own route sets that are no model check: what authorize has no question for. */
const NO_MODEL_CHECK: Readonly<Record<string, string>> = {
  login: 'signing in',
  logout: 'signing out',
  register: 'registration',
  passwordRecover: 'password mail',
  passwordReset: 'password reset',
  createOrganization: 'any signed-in user, no organization yet',
  organizationExists: 'any signed-in user',
  userRole: 'the caller’s own rules, any member',
  authorize: 'the question itself',
  listInvitations: 'an administration permission (invitations.index), read from GET {t}/user-role',
  createInvitation: 'an administration permission (invitations.store)',
  resendInvitation: 'an administration permission (invitations.update)',
  cancelInvitation: 'an administration permission (invitations.destroy)',
  listMembers: 'an administration permission (memberships.index)',
  updateMember: 'an administration permission (memberships.update)',
  removeMember: 'an administration permission (memberships.destroy)',
  showRolePermissions: 'an administration permission (roles.show) on a role’s permissions',
  updateRolePermissions: 'an administration permission (roles.update) on a role’s permissions',
  organizationAuditTrail: 'an administration permission (audit.index)',
  permissionCatalog: 'any member',
  explainDecision: 'the explanation itself',
  listDecisions: 'an administration permission (decisions.index)',
  listServiceResources: 'an administration permission (service_resources.index) outside tenancy',
  registerServiceResource: 'an administration permission (service_resources.update) outside tenancy',
  removeServiceResource: 'an administration permission (service_resources.destroy) outside tenancy',
};

/** Data routes that are no standard action: several writes, aggregates, an audit trail. */
const NO_STANDARD_ACTION = ['nested', 'computed', 'audit'];

interface Question {
  readonly route: Placed;
  readonly model: string;
  readonly action: string;
  readonly method: string;
}

/** What authorize is asked for a placed route, or why it is asked nothing. */
function questionOf(route: Placed): (Omit<Question, 'route' | 'model'> & { models: readonly string[] }) | string {
  if (route.kind === 'router') return 'an application router';
  if (route.kind === 'route' && route.route.servesCheck === undefined) return NO_MODEL_CHECK[route.route.operationId] ?? `unclassified route ${route.route.operationId}`;
  if (route.kind === 'nested' || (route.kind === 'data' && NO_STANDARD_ACTION.includes(route.route.operation))) return 'no standard action';
  const group = route.group;
  if (group === null || !group.auth || group.tenancy === 'none') return 'no POST {t}/authorize in a group without auth or tenancy';
  if (group.domain !== null) return 'the tenant group’s routes on a domain: compared on the main host';
  if (route.kind === 'route') return { models: [route.route.path.split('/')[1]!], action: 'index', method: route.method };
  return { models: group.models, action: ACTIONS[route.route.operation]!, method: route.method };
}

let server: TestServer;
const tokens = new Map<string, string>();
let fresh = 0;

beforeAll(async () => {
  server = await startDataServer();
  for (const user of MEMBERS) tokens.set(user.email, await server.login(user.email));
});

afterAll(() => server.close());

/** A record of `model` in `organization` made for one pair alone (a trashed one for restore), as the request would meet it. */
async function recordFor(model: string, organization: string, action: string): Promise<number> {
  const org = `(SELECT id FROM organizations WHERE slug = '${organization}')`;
  fresh += 1;
  if (model === 'posts') return (await server.sql<{ id: number }>(`INSERT INTO posts (organization_id, title, deleted_at) VALUES (${org}, $1, ${action === 'restore' ? 'now()' : 'NULL'}) RETURNING id`, [`Walk ${fresh}`]))[0]!.id;
  if (model === 'comments') {
    const [post] = await server.sql<{ id: number }>(`INSERT INTO posts (organization_id, title) VALUES (${org}, $1) RETURNING id`, [`Host ${fresh}`]);
    return (await server.sql<{ id: number }>('INSERT INTO comments (post_id, body) VALUES ($1, $2) RETURNING id', [post!.id, 'Walked']))[0]!.id;
  }
  if (model === 'users') {
    const [user] = await server.sql<{ id: number }>("INSERT INTO users (name, email, password_hash) VALUES ('Walker', $1, 'x') RETURNING id", [`walker${fresh}@example.test`]);
    await server.sql(`INSERT INTO user_roles (user_id, organization_id, role_id, route_group) SELECT $1, ${org}, id, 'tenant' FROM roles WHERE slug = 'viewer'`, [user!.id]);
    return user!.id;
  }
  // Organizations and roles are not made per pair: another organization, and a role, stand in.
  if (model === 'organizations') return (await server.sql<{ id: number }>("SELECT id FROM organizations WHERE slug = 'globex'"))[0]!.id;
  return (await server.sql<{ id: number }>("SELECT id FROM roles WHERE slug = 'viewer'"))[0]!.id;
}

describe('authorize agrees with every route of the route table', () => {
  it('for each demo member, as the real request answers', async () => {
    const unasked = new Map<string, string>();
    let compared = 0;
    for (const { group, routes } of table.groups) {
      for (const [index, route] of routes.entries()) {
        const question = questionOf(route);
        const name = `${group.name} ${'method' in route ? route.method.toUpperCase() : '*'} ${route.path}`;
        if (typeof question === 'string') {
          unasked.set(name, question);
          continue;
        }
        for (const [turn, user] of MEMBERS.entries()) {
          const model = question.models[(index + turn) % question.models.length]!;
          const organization = user.organization!;
          const id = route.path.includes(':id') ? await recordFor(model, organization, question.action) : undefined;
          const check = { model, action: question.action, ...(id === undefined ? {} : { id }) };
          const token = tokens.get(user.email)!;
          const answer = await server.api.post(`/api/${organization}/authorize`, { token, body: { checks: [check] } });
          const path = route.path.replace(':organization', organization).replace(':model', model).replace(':id', String(id));
          const real = await server.api.request(question.method.toUpperCase(), path, { token, ...(['post', 'put', 'patch'].includes(question.method) ? { body: {} } : {}) });
          const [result] = answer.body.results;
          const asked = { route: name, user: user.email, ...check };
          // Past every gate: answered, or refused only by the body's validation.
          expect({ asked, allowed: result.allowed }).toEqual({ asked, allowed: real.status < 300 || real.status === 422 });
          if (!result.allowed) expect({ asked, message: result.message }).toEqual({ asked, message: real.body.message });
          compared += 1;
        }
      }
    }
    expect([...unasked.values()].filter((why) => why.startsWith('unclassified'))).toEqual([]);
    // The tenant routes that serve roles and organizations are among the compared ones.
    expect(unasked.has('tenant GET /api/:organization/roles')).toBe(false);
    expect(unasked.has('tenant GET /api/:organization/organizations')).toBe(false);
    expect(compared).toBeGreaterThan(80);
  });
});
