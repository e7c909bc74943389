import { STANDARD_ACTIONS, type StandardAction } from '@gatehouse/engine';
import { CommanderError } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createProgram } from '../../../server/cli/program.js';
import { DATA_ROUTES } from '../../../server/routes/data-routes.js';
import { idOf, postId, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// POST {t}/explain against the real requests it explains, on one server with the demo data.

const MEMBERS = [
  { email: 'owner@acme.test', org: 'acme' },
  { email: 'editor@acme.test', org: 'acme' },
  { email: 'viewer@acme.test', org: 'acme' },
  { email: 'owner@globex.test', org: 'globex' },
] as const;
type Email = (typeof MEMBERS)[number]['email'];

const MODELS = ['posts', 'comments', 'users', 'organizations', 'roles'] as const;
type Model = (typeof MODELS)[number];

let server: TestServer;
const tokens = {} as Record<Email, string>;
const userIds = {} as Record<Email, number>;

beforeAll(async () => {
  server = await startDataServer();
  for (const { email } of MEMBERS) {
    tokens[email] = await server.login(email);
    userIds[email] = await idOf(server, 'users', 'email', email);
  }
});

afterAll(() => server.close());

const explain = (token: string, org: string, body: unknown) => server.api.post(`/api/${org}/explain`, { token, body });

/** A fresh record of the model in the organization for one case (a trashed post for restore), and a valid body for its writes. */
async function fixture(model: Model, org: string, email: Email, action: StandardAction): Promise<{ id: number; body: Record<string, unknown> }> {
  const organizationId = await idOf(server, 'organizations', 'slug', org);
  if (model === 'posts') {
    const [post] = await server.sql(
      `INSERT INTO posts (organization_id, title, author_id, deleted_at) VALUES ($1, 'Case', $2, ${action === 'restore' ? 'now()' : 'NULL'}) RETURNING id`,
      [organizationId, userIds[email]],
    );
    return { id: post.id, body: { title: 'Explained' } };
  }
  if (model === 'comments') {
    const [post] = await server.sql(`INSERT INTO posts (organization_id, title) VALUES ($1, 'Host') RETURNING id`, [organizationId]);
    const [comment] = await server.sql('INSERT INTO comments (post_id, body) VALUES ($1, $2) RETURNING id', [post.id, 'Case']);
    return { id: comment.id, body: action === 'store' ? { post_id: post.id, body: 'New' } : { body: 'Edited' } };
  }
  if (model === 'users') return { id: userIds[email], body: { name: 'Renamed' } };
  if (model === 'organizations') return { id: organizationId, body: { name: org === 'acme' ? 'Acme' : 'Globex' } };
  return { id: await idOf(server, 'roles', 'slug', 'viewer'), body: { name: 'Viewer' } };
}

describe('POST {t}/explain agrees with the request it explains', () => {
  const cases = MEMBERS.flatMap(({ email, org }) =>
    MODELS.flatMap((model) =>
      STANDARD_ACTIONS.map((action) => ({
        email,
        org,
        model,
        action,
      })),
    ),
  );

  it.each(cases)('$email: $model.$action', async ({ email, org, model, action }) => {
    const route = DATA_ROUTES.find((candidate) => candidate.operation === action)!;
    const { id, body } = await fixture(model, org, email, action);
    const record = route.path.includes(':id');
    const writes = route.body !== undefined;
    const explained = await explain(tokens[email], org, { model, action, ...(record ? { id } : {}), ...(writes ? { fields: Object.keys(body) } : {}) });
    expect(explained.status).toBe(200);

    const path = `/api/${org}${route.path.replace(':model', model).replace(':id', String(id))}`;
    const real = await server.api.request(route.method.toUpperCase(), path, { token: tokens[email], body: writes ? body : undefined });

    expect({ status: explained.body.status, allowed: explained.body.allowed }).toEqual({ status: real.status, allowed: real.status < 300 });
    if (real.status === 403) expect(explained.body.gate).toBe(real.body.reason.gate);
    if (real.status === 404) expect(explained.body.gate).toBe('record');
    expect(explained.body.checks.at(-1).passed).toBe(explained.body.allowed);
  });
});

describe('what an explanation names', () => {
  it('names the per-user deny of the editor as the source, beside the role entry that grants', async () => {
    const id = await postId(server, 'Welcome to Acme');
    const editor = userIds['editor@acme.test'];
    const explained = await explain(tokens['owner@acme.test'], 'acme', { user_id: editor, model: 'posts', action: 'forceDelete', id });
    expect(explained.body).toMatchObject({ allowed: false, gate: 'policy', status: 403, user: { id: editor, role: 'editor' } });
    expect(explained.body.checks.at(-1)).toMatchObject({
      gate: 'policy',
      detail: 'lacks posts.forceDelete',
      permission: { allowed: false, granted_by: [{ source: 'role', entry: 'posts.*' }], denied_by: [{ source: 'denied', entry: 'posts.forceDelete' }] },
    });
    const real = await server.api.delete(`/api/acme/posts/${id}/force-delete`, { token: tokens['editor@acme.test'] });
    expect(real.body.reason).toMatchObject({ gate: 'policy', permission: 'posts.forceDelete' });
  });

  it('tells the refused member their 403 came from a per-user deny, and a missing grant apart from it', async () => {
    const id = await postId(server, 'Welcome to Acme');
    const editor = tokens['editor@acme.test'];
    const denied = await server.api.delete(`/api/acme/posts/${id}/force-delete`, { token: editor });
    expect(denied.body).toEqual({ message: 'This action is unauthorized.', reason: { gate: 'policy', permission: 'posts.forceDelete', denied: true } });
    const authorized = await server.api.post('/api/acme/authorize', { token: editor, body: { checks: [{ model: 'posts', action: 'forceDelete', id }] } });
    expect(authorized.body.results).toEqual([denied.body].map((body) => ({ allowed: false, ...body })));
    const lacking = await server.api.delete(`/api/acme/posts/${id}`, { token: tokens['viewer@acme.test'] });
    expect(lacking.body).toEqual({ message: 'This action is unauthorized.', reason: { gate: 'policy', permission: 'posts.destroy' } });

    expect((await server.api.get('/api/acme/members', { token: editor })).body.reason).toEqual({ gate: 'administration', permission: 'memberships.index' });
    const editorId = userIds['editor@acme.test'];
    await server.sql(`UPDATE user_roles SET granted_permissions = granted_permissions || '{memberships.*}', denied_permissions = denied_permissions || '{memberships.index}' WHERE user_id = $1`, [editorId]);
    try {
      expect((await server.api.get('/api/acme/members', { token: editor })).body).toEqual({
        message: 'This action is unauthorized.',
        reason: { gate: 'administration', permission: 'memberships.index', denied: true },
      });
    } finally {
      await server.sql(`UPDATE user_roles SET granted_permissions = array_remove(granted_permissions, 'memberships.*'), denied_permissions = array_remove(denied_permissions, 'memberships.index') WHERE user_id = $1`, [editorId]);
    }
  });

  it('names PostPolicy.create when the override refuses a viewer granted posts.store', async () => {
    const viewer = userIds['viewer@acme.test'];
    await server.sql(`UPDATE user_roles SET granted_permissions = granted_permissions || '{posts.store}' WHERE user_id = $1`, [viewer]);
    try {
      const explained = await explain(tokens['viewer@acme.test'], 'acme', { model: 'posts', action: 'store', fields: ['title'] });
      expect(explained.body.checks.at(-1)).toMatchObject({
        gate: 'policy',
        passed: false,
        detail: 'refused by PostPolicy.create',
        policy: { allowed: false, permission: 'posts.store', permission_held: true, refused_by: 'PostPolicy.create' },
        permission: { allowed: true, granted_by: [{ source: 'granted', entry: 'posts.store' }] },
      });
      const real = await server.api.post('/api/acme/posts', { token: tokens['viewer@acme.test'], body: { title: 'Sneaky' } });
      expect(real.body.reason).toEqual({ gate: 'policy', permission: 'posts.store', policy: 'PostPolicy.create' });
    } finally {
      await server.sql(`UPDATE user_roles SET granted_permissions = array_remove(granted_permissions, 'posts.store') WHERE user_id = $1`, [viewer]);
    }
  });

  it('names the forbidden fields and the policy method whose list refused them', async () => {
    const explained = await explain(tokens['editor@acme.test'], 'acme', { model: 'posts', action: 'store', fields: 'title,internal_notes' });
    expect(explained.body).toMatchObject({ allowed: false, gate: 'fields', status: 403 });
    expect(explained.body.checks.at(-1)).toMatchObject({
      detail: 'may not set internal_notes (PostPolicy.permittedAttributesForCreate)',
      fields: { fields: ['internal_notes'], policy: 'PostPolicy.permittedAttributesForCreate' },
    });
  });

  it('explains a read of a field the member may not read as allowed, naming the field the answer leaves out', async () => {
    const id = await postId(server, 'Quarterly roadmap');
    const explained = await explain(tokens['viewer@acme.test'], 'acme', { model: 'posts', action: 'show', id, fields: ['title', 'internal_notes'] });
    expect(explained.body).toMatchObject({ allowed: true, gate: null, status: 200 });
    expect(explained.body.checks.at(-1)).toEqual({ gate: 'fields', passed: true, detail: 'reads without internal_notes', hidden_fields: ['internal_notes'] });
    const real = await server.api.get(`/api/acme/posts/${id}?fields=title,internal_notes`, { token: tokens['viewer@acme.test'] });
    expect(real.status).toBe(200);
    expect(real.body).not.toHaveProperty('internal_notes');
  });

  it('names the first include hop without its index permission', async () => {
    const explained = await explain(tokens['viewer@acme.test'], 'acme', { model: 'posts', action: 'index', include: ['comments.author'] });
    expect(explained.body).toMatchObject({ allowed: false, gate: 'include', status: 403 });
    expect(explained.body.checks.at(-1).include).toEqual({ allowed: false, include: 'comments.author', permission: 'users.index' });
  });

  it('tells neither an owner nor a member whether an id of another organization exists: missing, as its 404', async () => {
    const globexPost = await postId(server, 'Globex secrets');
    const viewer = userIds['viewer@acme.test'];
    const asOwner = await explain(tokens['owner@acme.test'], 'acme', { user_id: viewer, model: 'posts', action: 'show', id: globexPost });
    expect(asOwner.body).toMatchObject({ allowed: false, gate: 'record', status: 404 });
    expect(asOwner.body.checks.at(-1)).toEqual({ gate: 'record', passed: false, detail: 'no such record', record: 'missing' });

    const own = await server.api.get(`/api/acme/posts/${globexPost}`, { token: tokens['viewer@acme.test'] });
    expect(own.body).toEqual({ message: 'Resource not found' });
    const ownExplained = await explain(tokens['viewer@acme.test'], 'acme', { model: 'posts', action: 'show', id: globexPost });
    expect(ownExplained.body.checks.at(-1)).toEqual({ gate: 'record', passed: false, detail: 'not found', record: 'not_found' });
    const missing = await explain(tokens['viewer@acme.test'], 'acme', { model: 'posts', action: 'show', id: 999_999 });
    expect(missing.body.checks.at(-1)).toEqual(ownExplained.body.checks.at(-1));
  });

  it('gives an attacker holding decisions.explain in an organization of their own no oracle on other organizations’ ids', async () => {
    const attacker = tokens['viewer@acme.test'];
    const created = await server.api.post('/api/organizations', { token: attacker, body: { name: 'Probe', slug: 'probe' } });
    expect(created.status).toBe(201);
    const probes = [
      ['posts', await postId(server, 'Globex secrets')],
      ['users', userIds['owner@globex.test']],
      ['organizations', await idOf(server, 'organizations', 'slug', 'globex')],
      ['users', userIds['editor@acme.test']],
    ] as const;
    for (const [model, id] of probes) {
      for (const action of ['show', 'update', 'destroy'] as const) {
        const known = await explain(attacker, 'probe', { model, action, id });
        const unknown = await explain(attacker, 'probe', { model, action, id: 999_999 });
        expect({ model, action, id, answer: known.body.checks.at(-1) }).toEqual({ model, action, id, answer: unknown.body.checks.at(-1) });
        expect(known.body.checks.at(-1).record).toBe('missing');
      }
    }
  });

  it('tells an owner which part of the record gate hid a record of the organization: the trash, or nothing at all', async () => {
    const owner = tokens['owner@acme.test'];
    const [trashed] = await server.sql(`INSERT INTO posts (organization_id, title, deleted_at) VALUES ((SELECT id FROM organizations WHERE slug = 'acme'), 'Binned', now()) RETURNING id`);
    const state = async (body: Record<string, unknown>) => (await explain(owner, 'acme', body)).body.checks.at(-1).record;
    expect(await state({ model: 'posts', action: 'show', id: trashed.id })).toBe('trashed');
    expect(await state({ model: 'posts', action: 'restore', id: await postId(server, 'Welcome to Acme') })).toBe('not_trashed');
    expect(await state({ model: 'organizations', action: 'show', id: await idOf(server, 'organizations', 'slug', 'globex') })).toBe('missing');
    expect(await state({ model: 'posts', action: 'show', id: 999_999 })).toBe('missing');
  });

  it('tells an owner that a policy of their own hides a record of this organization from the member', async () => {
    const [hidden] = await server.sql(`INSERT INTO posts (organization_id, title) VALUES ((SELECT id FROM organizations WHERE slug = 'acme'), 'Board only') RETURNING id`);
    await server.sql(`CREATE POLICY board_only ON posts AS RESTRICTIVE FOR SELECT TO gatehouse_app USING (title <> 'Board only' OR gatehouse_user_id() = (SELECT id FROM users WHERE email = 'owner@acme.test'))`);
    try {
      const explained = await explain(tokens['owner@acme.test'], 'acme', { user_id: userIds['viewer@acme.test'], model: 'posts', action: 'show', id: hidden.id });
      expect(explained.body.checks.at(-1)).toEqual({ gate: 'record', passed: false, detail: 'hidden by row-level security', record: 'hidden_by_row_security' });
      const own = await server.api.get(`/api/acme/posts/${hidden.id}`, { token: tokens['viewer@acme.test'] });
      expect(own).toMatchObject({ status: 404, body: { message: 'Resource not found' } });
      const ownExplained = await explain(tokens['viewer@acme.test'], 'acme', { model: 'posts', action: 'show', id: hidden.id });
      expect(ownExplained.body.checks.at(-1).record).toBe('not_found');
    } finally {
      await server.sql('DROP POLICY board_only ON posts');
    }
  });

  it("needs decisions.explain for another member's request, and a member of this organization", async () => {
    const refused = await explain(tokens['viewer@acme.test'], 'acme', { user_id: userIds['editor@acme.test'], model: 'posts', action: 'index' });
    expect(refused).toMatchObject({ status: 403, body: { reason: { gate: 'administration', permission: 'decisions.explain' } } });
    const stranger = await explain(tokens['owner@acme.test'], 'acme', { user_id: userIds['owner@globex.test'], model: 'posts', action: 'index' });
    expect(stranger).toMatchObject({ status: 404, body: { message: 'Member not found.' } });
  });

  it('answers bad input with 422 naming the field, never a 500', async () => {
    const owner = tokens['owner@acme.test'];
    expect((await explain(owner, 'acme', { model: 'posts', action: 'fly' })).body.errors).toHaveProperty('action');
    expect((await explain(owner, 'acme', { model: 'secrets', action: 'index' })).body.errors).toEqual({ model: ['The model secrets is not served here.'] });
    expect((await explain(owner, 'acme', { model: 'posts', action: 'show' })).body.errors).toEqual({ id: ['The id field is required for show.'] });
    expect((await explain(owner, 'acme', { model: 'posts', action: 'show', id: 'abc' })).body.errors).toEqual({ id: ['The id field must be a positive integer.'] });
    // Digits with leading zeros name the record a path segment names, as GET /posts/0001 reads them.
    const padded = await explain(owner, 'acme', { model: 'posts', action: 'show', id: '0001' });
    expect(padded.status).toBe(200);
    expect(padded.body).toEqual((await explain(owner, 'acme', { model: 'posts', action: 'show', id: 1 })).body);
    // Ten digits pass as a string but not as a database key: the same 422 as the number.
    expect((await explain(owner, 'acme', { model: 'posts', action: 'show', id: '9999999999' })).body.errors).toEqual({ id: ['The id field must not be greater than 2147483647.'] });
    expect((await explain(owner, 'acme', { model: 'posts', action: 'index', include: 'comments.secrets' })).status).toBe(400);
    // A store answering its record with an include: explained after its write fields, as its request refuses it.
    const contributor = await server.login('contributor@acme.test');
    const storing = await explain(contributor, 'acme', { model: 'posts', action: 'store', fields: ['title'], include: ['author'] });
    expect(storing.body.checks.at(-1)).toMatchObject({ gate: 'include', passed: false, detail: 'may not include author: lacks users.index' });
    // A delete answers nothing and takes no query parameters: its includes are the request's 400, not left out of the explanation.
    expect(await explain(owner, 'acme', { model: 'posts', action: 'destroy', id: 1, include: ['author'] })).toMatchObject({ status: 400, body: { message: 'Unknown query parameter: include.' } });
  });
});

describe('gatehouse explain', () => {
  /** The command in this process, against the test database; what it printed, or the error it ended with. */
  async function gatehouse(...args: string[]): Promise<{ printed: string; error?: unknown }> {
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(text));
    vi.stubEnv('DATABASE_URL', server.database.ownerUrl);
    try {
      await createProgram().configureOutput({ writeErr: () => {}, writeOut: () => {} }).parseAsync(args, { from: 'user' });
      return { printed: printed.join('\n') };
    } catch (error) {
      return { printed: printed.join('\n'), error };
    } finally {
      log.mockRestore();
      vi.unstubAllEnvs();
    }
  }

  it('prints the decision as an indented tree, naming the deny', async () => {
    const id = await postId(server, 'Welcome to Acme');
    const { printed, error } = await gatehouse('explain', '--org', 'acme', '--user', 'editor@acme.test', 'posts.forceDelete', '--id', String(id));
    expect(error).toBeUndefined();
    expect(printed).toBe(
      [
        `DELETE /api/acme/posts/${id}/force-delete as editor@acme.test (editor)`,
        '  authentication: passed (explained as signed in)',
        '  route_group: passed (membership enforcement is off)',
        '  organization: passed (acme)',
        '  membership: passed (editor of acme)',
        '  record: passed (visible)',
        '  policy: REFUSED (lacks posts.forceDelete)',
        '    policy method: refused',
        '    permission posts.forceDelete: not held',
        '      granted by role: posts.*',
        '      denied by denied: posts.forceDelete',
        'refused at policy (403)',
      ].join('\n'),
    );
  });

  it('prints the same decision as the API answers, as JSON', async () => {
    const { printed } = await gatehouse('explain', '--org', 'acme', '--user', 'editor@acme.test', 'posts.store', '--fields', 'title,internal_notes', '--json');
    const api = await explain(tokens['owner@acme.test'], 'acme', { user_id: userIds['editor@acme.test'], model: 'posts', action: 'store', fields: ['title', 'internal_notes'] });
    expect(JSON.parse(printed)).toEqual(api.body);
  });

  it('tells an operator what no member learns: another organization, a scope', async () => {
    const record = async (...args: string[]) => JSON.parse((await gatehouse('explain', '--org', 'acme', '--user', 'viewer@acme.test', ...args, '--json')).printed).checks.at(-1).record;
    expect(await record('posts.show', '--id', String(await postId(server, 'Globex secrets')))).toBe('not_in_organization');
    expect(await record('organizations.show', '--id', String(await idOf(server, 'organizations', 'slug', 'globex')))).toBe('hidden_by_scope');
    expect(await record('users.show', '--id', String(userIds['owner@globex.test']))).toBe('hidden_by_scope');
    expect(await record('posts.show', '--id', '999999')).toBe('missing');
  });

  it('refuses a malformed request with a usage error, and an unknown member with one line', async () => {
    const usage = await gatehouse('explain', '--org', 'acme', '--user', 'editor@acme.test', 'posts');
    expect(usage.error).toBeInstanceOf(CommanderError);
    expect(usage.error).toMatchObject({ code: 'commander.invalidArgument', exitCode: 1 });
    const stranger = await gatehouse('explain', '--org', 'acme', '--user', 'owner@globex.test', 'posts.index');
    expect(String((stranger.error as Error).message)).toBe('owner@globex.test is not a member of acme (route group tenant).');
  });
});
