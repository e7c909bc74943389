import Router from '@koa/router';
import { createMongoAbility } from '@casl/ability';
import { unpackRules } from '@casl/ability/extra';
import { STANDARD_ACTIONS } from '@gatehouse/engine/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoModels } from '../../../policies/demo-models.js';
import { DEMO_USERS } from '../../../policies/seed.js';
import type { GatehouseState } from '../../../server/http/state.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Issue 14, item 9: the packed rules of GET {t}/user-role use CASL's own `manage` and `all`, so
// any app rebuilds them with a default createMongoAbility and gets the server's answers.

const ACTIONS = [...STANDARD_ACTIONS, 'publish', 'manage'];
const SLUGS = [...demoModels.map((model) => model.slug), 'invitations', 'tags', 'all'];
const MATRIX = ACTIONS.flatMap((action) => SLUGS.map((slug) => [action, slug] as const));

/** The server's own ability of the request, asked every action x slug. */
function abilityRoutes(): Router<GatehouseState> {
  return new Router<GatehouseState>().get('/server-ability', (ctx) => {
    const { ability } = ctx.state.authorization!;
    ctx.body = MATRIX.map(([action, slug]) => ability.can(action, slug));
  });
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ dataRoutes: abilityRoutes });
});

afterAll(() => server.close());

/** Where each demo user signs in and asks: the admin in the admin group, members in their organization. */
const placeOf = (user: (typeof DEMO_USERS)[number]) =>
  user.organization === null ? { login: `/api/${user.routeGroup}/auth/login`, base: `/api/${user.routeGroup}` } : { login: '/api/auth/login', base: `/api/${user.organization}` };

async function rulesAndServerAnswers(user: (typeof DEMO_USERS)[number]) {
  const { login, base } = placeOf(user);
  const token = await server.login(user.email, { path: login });
  const [role, answers] = await Promise.all([server.api.get(`${base}/user-role`, { token }), server.api.get(`${base}/server-ability`, { token })]);
  expect(role.status).toBe(200);
  expect(answers.status).toBe(200);
  return { rules: role.body.rules, server: answers.body as boolean[] };
}

describe('packed rules rebuilt with a default createMongoAbility', () => {
  it.each(DEMO_USERS.map((user) => [user.email, user] as const))('agree with the server for %s on every action x slug', async (_email, user) => {
    const { rules, server: answers } = await rulesAndServerAnswers(user);
    const browser = createMongoAbility<[string, string]>(unpackRules(rules));
    const rebuilt = MATRIX.map(([action, slug]) => browser.can(action, slug));
    expect(rebuilt).toEqual(answers);
    expect(answers.some(Boolean)).toBe(true);
  });

  it('use manage and all for the wildcards: the editor may update posts, not force delete them', async () => {
    const editor = DEMO_USERS.find((user) => user.email === 'editor@acme.test')!;
    const { rules } = await rulesAndServerAnswers(editor);
    expect(rules).toEqual([['manage', 'comments'], ['manage', 'posts'], ['index', 'users'], ['forceDelete', 'posts', 0, 1]]);
    const browser = createMongoAbility<[string, string]>(unpackRules(rules));
    expect(browser.can('update', 'posts')).toBe(true);
    expect(browser.can('forceDelete', 'posts')).toBe(false);
    expect(browser.can('update', 'users')).toBe(false);
  });

  it('give the owner everything: manage all', async () => {
    const owner = DEMO_USERS.find((user) => user.email === 'owner@acme.test')!;
    const { rules } = await rulesAndServerAnswers(owner);
    expect(rules).toEqual([['manage', 'all']]);
    expect(createMongoAbility<[string, string]>(unpackRules(rules)).can('forceDelete', 'invitations')).toBe(true);
  });
});
