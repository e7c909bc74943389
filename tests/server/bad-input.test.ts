import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NESTED_OPERATIONS } from '../../server/data/nested-operations.js';
import { ACME_HOST, idOf, startDataServer } from './support/data-server.js';
import type { RequestOptions } from './support/http-client.js';
import { lastMail } from './support/mail.js';
import type { TestServer } from './support/test-server.js';

// Malformed input at every endpoint family, over HTTP against the real server: whatever the
// input, the answer is a clear JSON error, never a 500 (or a hang, or an HTML page), and nothing
// is written. Each case is [what is sent, caller, method, path, request options]; post 1 is the
// first seeded post of acme.

type Caller = 'guest' | 'owner' | 'editor' | 'admin' | 'portal';
// Options may be a function, for values the fixtures only know once the server runs.
type Case = [label: string, caller: Caller, method: string, path: string, options?: RequestOptions | (() => RequestOptions)];

// 431 is Node's own answer to headers over its size limit, before the request reaches the app.
const CLEAR_ERRORS = [400, 401, 403, 404, 405, 413, 415, 422, 431];

let server: TestServer;
const tokens: Partial<Record<Caller, string>> = {};
/** A live invitation token, so registration gets past the invitation to its own checks. */
let invitationToken: string;
let seedCounts: Record<string, number>;

const COUNTED = ['users', 'organizations', 'posts', 'comments', 'invitations', 'user_roles', 'audit_logs'] as const;

async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of COUNTED) counts[table] = Number((await server.sql<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))[0]!.n);
  return counts;
}

beforeAll(async () => {
  server = await startDataServer();
  tokens.owner = await server.login('owner@acme.test');
  tokens.editor = await server.login('editor@acme.test');
  tokens.admin = await server.login('admin@example.test', { path: '/api/admin/auth/login' });
  // The editor of acme, also a member in the domain group, so host cases get past membership.
  await server.sql(`INSERT INTO user_roles (user_id, organization_id, role_id, route_group)
    SELECT u.id, o.id, r.id, 'portal' FROM users u, organizations o, roles r
    WHERE u.email = 'editor@acme.test' AND o.slug = 'acme' AND r.slug = 'editor'`);
  tokens.portal = await server.login('editor@acme.test', { host: ACME_HOST });
  const invited = await server.api.post('/api/acme/invitations', {
    token: tokens.owner,
    body: { email: 'fuzz-newcomer@acme.test', role_id: await idOf(server, 'roles', 'slug', 'viewer') },
  });
  expect(invited.status).toBe(201);
  invitationToken = (await lastMail(server, 'fuzz-newcomer@acme.test')).token;
  seedCounts = await rowCounts();
});

afterAll(() => server.close());

async function expectClearError([, caller, method, path, given = {}]: Case) {
  const options = typeof given === 'function' ? given() : given;
  const response = await server.api.request(method, path, { ...options, token: caller === 'guest' ? options.token : tokens[caller] });
  const summary = `${response.status} ${JSON.stringify(response.body)}`;
  expect(CLEAR_ERRORS, summary).toContain(response.status);
  expect(response.headers['content-type'], summary).toMatch(/^application\/json/);
  expect(typeof response.body.message, summary).toBe('string');
}

const json = (rawBody: string, contentType = 'application/json'): RequestOptions => ({ rawBody, headers: { 'content-type': contentType } });
const HUGE = 'x'.repeat(50_000);
const NUL = 'a\u0000b';

/** Bodies read as no body at all, an empty object: an error only where the endpoint needs fields. */
const absentBodies = (caller: Caller, method: string, path: string): Case[] => [
  [`${path} empty body`, caller, method, path, json('')],
  [`${path} text/plain`, caller, method, path, json('email=a@b.c', 'text/plain')],
  [`${path} form encoded`, caller, method, path, json('email=a@b.c&password=x', 'application/x-www-form-urlencoded')],
];

/** The same malformed bodies thrown at every endpoint that takes one. */
const malformedBodies = (caller: Caller, method: string, path: string): Case[] => [
  [`${path} null`, caller, method, path, json('null')],
  [`${path} number`, caller, method, path, json('42')],
  [`${path} string`, caller, method, path, json('"text"')],
  [`${path} array`, caller, method, path, json('[1, 2]')],
  [`${path} truncated JSON`, caller, method, path, json('{"a":')],
  [`${path} unknown content encoding`, caller, method, path, { rawBody: '{}', headers: { 'content-type': 'application/json', 'content-encoding': 'br-nope' } }],
  [`${path} gzip that is not gzip`, caller, method, path, { rawBody: '{}', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }],
  [`${path} over the body limit`, caller, method, path, { body: { padding: 'x'.repeat(200_000) } }],
  [`${path} deeply nested`, caller, method, path, json(`${'['.repeat(20_000)}${']'.repeat(20_000)}`)],
];

const bodiesFor = (caller: Caller, method: string, path: string): Case[] => [...absentBodies(caller, method, path), ...malformedBodies(caller, method, path)];

/** Every field of an auth body set to values of the wrong type. */
const wrongTypes = (caller: Caller, path: string, fields: string[], valid: Record<string, unknown>): Case[] =>
  fields.flatMap((field) =>
    [42, true, null, [], ['a'], {}, { $ne: '' }, '', HUGE, NUL].map(
      (value): Case => [`${path} ${field}=${JSON.stringify(value).slice(0, 20)}`, caller, 'POST', path, { body: { ...valid, [field]: value } }],
    ),
  );

describe('auth', () => {
  const login = { email: 'nobody@acme.test', password: 'wrong password' };
  const register = () => ({ token: invitationToken, name: 'New Person', email: 'fuzz-newcomer@acme.test', password: 'password123!', password_confirmation: 'password123!x' });
  const reset = { token: 'not-a-token', email: 'viewer@acme.test', password: 'password123!', password_confirmation: 'password123!' };

  const CASES: Case[] = [
    ...['/api/auth/login', '/api/auth/register', '/api/auth/password/recover', '/api/auth/password/reset', '/api/admin/auth/login'].flatMap((path) =>
      bodiesFor('guest', 'POST', path),
    ),
    ...wrongTypes('guest', '/api/auth/login', ['email', 'password'], { email: 'owner@acme.test', password: 'x' }),
    ['login missing fields', 'guest', 'POST', '/api/auth/login', { body: {} }],
    ['login email with NUL', 'guest', 'POST', '/api/auth/login', { body: { ...login, email: `nobody${NUL}@acme.test` } }],
    ['login unknown group', 'guest', 'POST', '/api/nogroup/auth/login', { body: login }],
    ['login via GET', 'guest', 'GET', '/api/auth/login'],
    ...wrongTypes('guest', '/api/auth/password/recover', ['email'], {}),
    ...wrongTypes('guest', '/api/auth/password/reset', ['token', 'email', 'password', 'password_confirmation'], reset),
    ['reset unknown token', 'guest', 'POST', '/api/auth/password/reset', { body: reset }],
    ['reset token with NUL', 'guest', 'POST', '/api/auth/password/reset', { body: { ...reset, token: NUL } }],
    ['register unknown token', 'guest', 'POST', '/api/auth/register', () => ({ body: { ...register(), token: 'nope', password_confirmation: 'password123!' } })],
    ['register another email', 'guest', 'POST', '/api/auth/register', () => ({ body: { ...register(), email: 'other@acme.test', password_confirmation: 'password123!' } })],
    ['register missing fields', 'guest', 'POST', '/api/auth/register', { body: {} }],
    ['logout without a token', 'guest', 'POST', '/api/auth/logout'],
    ['logout with a garbage token', 'guest', 'POST', '/api/auth/logout', { token: 'v4.public.garbage' }],
    ['logout with a huge token', 'guest', 'POST', '/api/auth/logout', { token: 'x'.repeat(10_000) }],
    ['logout with a Basic header', 'guest', 'POST', '/api/auth/logout', { headers: { authorization: 'Basic b3duZXI6cGFzcw==' } }],
    ['logout with an empty Bearer', 'guest', 'POST', '/api/auth/logout', { headers: { authorization: 'Bearer ' } }],
    ['logout of another group', 'admin', 'POST', '/api/auth/logout'],
  ];

  it.each(CASES)('%s', (...testCase) => expectClearError(testCase));

  // Registration with a live invitation, so each body gets past the invitation to its own checks.
  const REGISTER: [string, Record<string, unknown>][] = [
    ['name with NUL', { name: NUL, password_confirmation: 'password123!' }],
    ['name a number', { name: 42 }],
    ['email an object', { email: {} }],
    ['password too long', { password: HUGE, password_confirmation: HUGE }],
    ['confirmation mismatch', {}],
    ['token an array', { token: ['x'] }],
  ];

  it.each(REGISTER)('register: %s', (_label, override) =>
    expectClearError(['', 'guest', 'POST', '/api/auth/register', { body: { ...register(), ...override } }]),
  );
});

describe('organizations, roles and user role', () => {
  const CASES: Case[] = [
    ...bodiesFor('owner', 'POST', '/api/organizations'),
    ...wrongTypes('owner', '/api/organizations', ['name', 'slug'], { name: 'Fuzz Inc', slug: 'fuzz-inc' }),
    ['create: slug with upper case', 'owner', 'POST', '/api/organizations', { body: { name: 'Fuzz', slug: 'Fuzz' } }],
    ['create: slug with unicode', 'owner', 'POST', '/api/organizations', { body: { name: 'Fuzz', slug: 'füzz' } }],
    ['create: slug with double hyphen', 'owner', 'POST', '/api/organizations', { body: { name: 'Fuzz', slug: 'fuzz--inc' } }],
    ['create: slug reserved', 'owner', 'POST', '/api/organizations', { body: { name: 'Fuzz', slug: 'admin' } }],
    ['create: slug taken', 'owner', 'POST', '/api/organizations', { body: { name: 'Fuzz', slug: 'acme' } }],
    ['create: slug too long', 'owner', 'POST', '/api/organizations', { body: { name: 'Fuzz', slug: 'a'.repeat(64) } }],
    ['create: name with NUL', 'owner', 'POST', '/api/organizations', { body: { name: NUL, slug: 'fuzz-nul' } }],
    ['create: as a guest', 'guest', 'POST', '/api/organizations', { body: { name: 'Fuzz', slug: 'fuzz-guest' } }],
    ['create: in a group without tenancy', 'admin', 'POST', '/api/admin/organizations', { body: { name: 'Fuzz', slug: 'fuzz-admin' } }],
    ['exists: as a guest', 'guest', 'GET', '/api/acme/organizations/exists'],
    ['fetch: include ,,', 'owner', 'GET', '/api/acme/organizations?include=,,'],
    ['fetch: include users.roles', 'owner', 'GET', '/api/acme/organizations?include=users.roles'],
    ['fetch: include unknown', 'owner', 'GET', '/api/acme/organizations?include=secrets'],
    ['fetch: include constructor', 'owner', 'GET', '/api/acme/organizations?include=constructor'],
    ['fetch: include __proto__', 'owner', 'GET', '/api/acme/organizations?include=__proto__'],
    ['fetch: include unicode', 'owner', 'GET', `/api/acme/organizations?include=${encodeURIComponent('üsers')}`],
    ['fetch: include NUL', 'owner', 'GET', '/api/acme/organizations?include=%00'],
    ['fetch: include twice', 'owner', 'GET', '/api/acme/organizations?include=users&include=roles'],
    ['fetch: filter repeated', 'owner', 'GET', '/api/acme/organizations?filter[slug]=acme&filter[slug]=globex'],
    ['fetch: filter as array', 'owner', 'GET', '/api/acme/organizations?filter[slug][]=acme'],
    ['fetch: filter nested', 'owner', 'GET', '/api/acme/organizations?filter[a][b]=c'],
    ['fetch: unknown parameter', 'owner', 'GET', '/api/acme/organizations?page=1'],
    ['fetch: unicode slug', 'owner', 'GET', `/api/${encodeURIComponent('äcme')}/organizations`],
    ['fetch: upper-case slug', 'owner', 'GET', '/api/ACME/organizations'],
    ['fetch: NUL slug', 'owner', 'GET', '/api/ac%00me/organizations'],
    ['fetch: huge slug', 'owner', 'GET', `/api/${'a'.repeat(5000)}/organizations`],
    ['fetch: another organization', 'owner', 'GET', '/api/globex/organizations'],
    ['fetch: as a guest', 'guest', 'GET', '/api/acme/organizations'],
    ['fetch: with a session of another group', 'admin', 'GET', '/api/acme/organizations'],
    ['roles: unknown organization', 'owner', 'GET', '/api/nowhere/roles'],
    ['roles: as a guest', 'guest', 'GET', '/api/acme/roles'],
    ['user-role: unknown organization', 'owner', 'GET', '/api/nowhere/user-role'],
    ['user-role: as a guest', 'guest', 'GET', '/api/acme/user-role'],
    ['user-role: admin group as a tenant member', 'owner', 'GET', '/api/admin/user-role'],
  ];

  it.each(CASES)('%s', (...testCase) => expectClearError(testCase));

  // Odd slugs to the slug check are questions, not errors: they are simply not taken.
  it.each(['ac%00me', encodeURIComponent('äcme'), 'ACME', 'a'.repeat(300), '-acme', '1e3'])('exists: %s is free', async (slug) => {
    const response = await server.api.get(`/api/${slug}/organizations/exists`, { token: tokens.owner });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ exists: false });
  });
});

describe('invitations', () => {
  const ODD_IDS = ['abc', '1e3', '-1', '0', '1.5', '0x10', '99999999999999999999', '2147483648', '%00', ' 1', '1%20'];

  const CASES: Case[] = [
    ...bodiesFor('owner', 'POST', '/api/acme/invitations'),
    ...wrongTypes('owner', '/api/acme/invitations', ['email', 'role_id', 'route_group'], { email: 'fuzz-invitee@acme.test', role_id: 3 }),
    ...[0, -1, 1.5, 2 ** 31, 2 ** 53, 1e300, '3'].map(
      (roleId): Case => [`invite: role_id ${roleId}`, 'owner', 'POST', '/api/acme/invitations', { body: { email: 'fuzz-invitee@acme.test', role_id: roleId } }],
    ),
    ['invite: email not an address', 'owner', 'POST', '/api/acme/invitations', { body: { email: 'not an email', role_id: 3 } }],
    ['invite: unknown route group', 'owner', 'POST', '/api/acme/invitations', { body: { email: 'fuzz-invitee@acme.test', role_id: 3, route_group: 'nope' } }],
    ['invite: route group without tenancy', 'owner', 'POST', '/api/acme/invitations', { body: { email: 'fuzz-invitee@acme.test', role_id: 3, route_group: 'admin' } }],
    ['invite: route group with NUL', 'owner', 'POST', '/api/acme/invitations', { body: { email: 'fuzz-invitee@acme.test', role_id: 3, route_group: NUL } }],
    ['invite: as the editor', 'editor', 'POST', '/api/acme/invitations', { body: { email: 'fuzz-invitee@acme.test', role_id: 3 } }],
    ['list: unknown status', 'owner', 'GET', '/api/acme/invitations?status=bogus'],
    ['list: empty status', 'owner', 'GET', '/api/acme/invitations?status='],
    ['list: status twice', 'owner', 'GET', '/api/acme/invitations?status=pending&status=accepted'],
    ['list: status as array', 'owner', 'GET', '/api/acme/invitations?status[]=pending'],
    ['list: status NUL', 'owner', 'GET', '/api/acme/invitations?status=%00'],
    ['list: unknown parameter', 'owner', 'GET', '/api/acme/invitations?page=1'],
    ['list: as the editor', 'editor', 'GET', '/api/acme/invitations'],
    ...ODD_IDS.flatMap((id): Case[] => [
      [`resend ${id}`, 'owner', 'POST', `/api/acme/invitations/${id}/resend`],
      [`cancel ${id}`, 'owner', 'DELETE', `/api/acme/invitations/${id}`],
    ]),
    ['cancel without an id', 'owner', 'DELETE', '/api/acme/invitations'],
    ['resend via GET', 'owner', 'GET', '/api/acme/invitations/1/resend'],
    ...bodiesFor('guest', 'POST', '/api/invitations/accept'),
    ...wrongTypes('guest', '/api/invitations/accept', ['token'], {}),
    ['accept: unknown token', 'guest', 'POST', '/api/invitations/accept', { body: { token: 'nope' } }],
    ['accept: unknown token, signed in', 'editor', 'POST', '/api/invitations/accept', { body: { token: 'nope' } }],
    ['accept: a token of another invitee', 'editor', 'POST', '/api/invitations/accept', () => ({ body: { token: invitationToken } })],
    ['accept: with a garbage bearer', 'guest', 'POST', '/api/invitations/accept', { token: 'garbage', body: { token: 'nope' } }],
  ];

  it.each(CASES)('%s', (...testCase) => expectClearError(testCase));
});

describe('data endpoints', () => {
  const ODD_IDS = ['abc', '1e3', '-1', '0', '1.5', '0x10', '99999999999999999999', '2147483648', '%00', '%2e%2e', ' 1', 'NaN', 'Infinity'];
  const post = { title: 'Fuzzed' };

  const QUERIES = [
    'filter[title]=a',
    'filter[status][]=draft',
    'filter[a][b]=c',
    'filter=draft',
    'filter[]=draft',
    'filter[author_id]=abc',
    'filter[author_id]=1.5',
    'filter[author_id]=99999999999',
    'filter[author_id]=999999999999999',
    'filter[author_id]=-999999999999999',
    'filter[status]=%00',
    'filter[constructor]=x',
    'filter[__proto__]=x',
    'filter[status]=a&filter[status]=b',
    'sort=-',
    'sort=--id',
    'sort=internal_notes',
    'sort=constructor',
    'sort=title&sort=-title',
    'page=-1',
    'page=0',
    'page=abc',
    'page=1.5',
    'page=1&page=2',
    'page=99999999999',
    'per_page=0',
    'per_page=100000',
    'per_page=-5',
    'per_page=',
    'include=,,',
    'include=nope',
    'include=author.nope',
    'include=comments.post.comments.post.comments.post.nope',
    'include=author..comments',
    'include=constructor',
    'include=__proto__',
    'include=author&include=comments',
    'fields[posts]=id,,x',
    'fields[posts]=password_hash',
    'fields[users]=email',
    'fields[users]=password_hash&include=author',
    'fields[nope]=id',
    'fields[constructor]=id',
    'fields=nope',
    'fields=id&fields[posts]=title',
    'scope=unknown',
    'scope[unknown]=',
    'scope[byAuthor]=abc',
    'scope[byAuthor]=99999999999',
    'scope=byAuthor',
    'scope[drafts]=x',
    'scope[]=x',
    'scope=constructor',
    'scope=published,,hasOwnProperty',
    'search=%00',
    'search=a&search=b',
    'unknown=1',
    '__proto__=1',
    'x[y]=1',
  ];

  const CASES: Case[] = [
    ...QUERIES.map((query): Case => [`index ?${query}`, 'editor', 'GET', `/api/acme/posts?${query}`]),
    ...QUERIES.map((query): Case => [`trashed ?${query}`, 'editor', 'GET', `/api/acme/posts/trashed?${query}`]),
    ...['filter[author_id]=99999999999', 'filter[status]=%00', 'search=%00', 'page=1', 'include=author'].map(
      (query): Case => [`computed ?${query}`, 'editor', 'GET', `/api/acme/posts/computed?${query}`],
    ),
    ['show ?page=1', 'editor', 'GET', '/api/acme/posts/1?page=1'],
    ['show ?filter[internal_notes]=x', 'editor', 'GET', '/api/acme/posts/1?filter[internal_notes]=x'],
    ['show ?fields=nope', 'editor', 'GET', '/api/acme/posts/1?fields=nope'],
    ['audit ?page=0', 'editor', 'GET', '/api/acme/posts/1/audit?page=0'],
    ['audit ?sort=id', 'editor', 'GET', '/api/acme/posts/1/audit?sort=id'],
    ...ODD_IDS.flatMap((id): Case[] => [
      [`show ${id}`, 'editor', 'GET', `/api/acme/posts/${id}`],
      [`update ${id}`, 'editor', 'PATCH', `/api/acme/posts/${id}`, { body: post }],
      [`replace ${id}`, 'editor', 'PUT', `/api/acme/posts/${id}`, { body: post }],
      [`delete ${id}`, 'editor', 'DELETE', `/api/acme/posts/${id}`],
      [`restore ${id}`, 'editor', 'POST', `/api/acme/posts/${id}/restore`],
      [`force-delete ${id}`, 'owner', 'DELETE', `/api/acme/posts/${id}/force-delete`],
      [`audit ${id}`, 'editor', 'GET', `/api/acme/posts/${id}/audit`],
    ]),
    ...bodiesFor('editor', 'POST', '/api/acme/posts'),
    ...bodiesFor('editor', 'POST', '/api/acme/nested'),
    ...bodiesFor('editor', 'POST', '/api/acme/posts/nested'),
    // An update without fields changes nothing and answers the record, so only malformed bodies here.
    ...malformedBodies('editor', 'PATCH', '/api/acme/posts/1'),
    ...[{}, [], 42, true, null, HUGE, NUL, { a: 1 }, ['a']].flatMap((value): Case[] => [
      [`store title=${JSON.stringify(value).slice(0, 20)}`, 'editor', 'POST', '/api/acme/posts', { body: { title: value } }],
      [`store status=${JSON.stringify(value).slice(0, 20)}`, 'editor', 'POST', '/api/acme/posts', { body: { title: 'Fuzzed', status: value } }],
      [`store body=${JSON.stringify(value).slice(0, 20)}`, 'owner', 'POST', '/api/acme/posts', { body: { title: 'Fuzzed', body: value, status: 'nope' } }],
      [`comment post_id=${JSON.stringify(value).slice(0, 20)}`, 'editor', 'POST', '/api/acme/comments', { body: { post_id: value, body: 'Hi' } }],
    ]),
    ['store title with NUL', 'editor', 'POST', '/api/acme/posts', { body: { title: NUL } }],
    ['store body with NUL', 'owner', 'POST', '/api/acme/posts', { body: { title: 'Fuzzed', body: NUL } }],
    ['store __proto__ as the owner', 'owner', 'POST', '/api/acme/posts', json('{"title":"Fuzzed","__proto__":{"x":1},"status":"nope"}')],
    ['store an unknown column as the owner', 'owner', 'POST', '/api/acme/posts', { body: { title: 'Fuzzed', nope: 1, status: 'nope' } }],
    ['store a server-owned field as the editor', 'editor', 'POST', '/api/acme/posts', { body: { title: 'Fuzzed', organization_id: 2 } }],
    ...[-1, 0, 1.5, 2 ** 31, 2 ** 53, 1e300, '1'].map(
      (postId): Case => [`comment post_id ${postId}`, 'editor', 'POST', '/api/acme/comments', { body: { post_id: postId, body: 'Hi' } }],
    ),
    ['comment body with NUL', 'editor', 'POST', '/api/acme/comments', { body: { post_id: 1, body: NUL } }],
    ['update title {}', 'editor', 'PATCH', '/api/acme/posts/1', { body: { title: {} } }],
    ['unknown model', 'editor', 'GET', '/api/acme/nope'],
    ['model constructor', 'editor', 'GET', '/api/acme/constructor'],
    ['model __proto__', 'editor', 'GET', '/api/acme/__proto__'],
    ['model NUL', 'editor', 'GET', '/api/acme/%00'],
    ['model not served by the group', 'editor', 'GET', '/api/acme/organizations/1'],
    ['trashed of a model without soft deletes', 'editor', 'GET', '/api/acme/comments/trashed'],
    ['audit of a model without audit', 'editor', 'GET', '/api/acme/comments/1/audit'],
  ];

  // Nested operations: the body's shape, then each operation's.
  const ops = (operations: unknown): RequestOptions => ({ body: { operations } });
  const update = { model: 'posts', action: 'update', data: post };
  const NESTED: Case[] = [
    ...[undefined, null, 'x', 42, {}, [], [null], [42], ['x'], [[]]].map(
      (operations): Case => [`nested operations=${JSON.stringify(operations)}`, 'editor', 'POST', '/api/acme/nested', ops(operations)],
    ),
    ['nested 51 operations', 'editor', 'POST', '/api/acme/nested', ops(Array.from({ length: MAX_NESTED_OPERATIONS + 1 }, () => ({ model: 'posts', action: 'create', data: post })))],
    ['nested unknown action', 'editor', 'POST', '/api/acme/nested', ops([{ model: 'posts', action: 'upsert', data: post }])],
    ['nested action an array', 'editor', 'POST', '/api/acme/nested', ops([{ model: 'posts', action: ['create'], data: post }])],
    ['nested without a model', 'editor', 'POST', '/api/acme/nested', ops([{ action: 'create', data: post }])],
    ['nested model a number', 'editor', 'POST', '/api/acme/nested', ops([{ model: 1, action: 'create', data: post }])],
    ['nested unknown model', 'editor', 'POST', '/api/acme/nested', ops([{ model: 'nope', action: 'create', data: post }])],
    ['nested model constructor', 'editor', 'POST', '/api/acme/nested', ops([{ model: 'constructor', action: 'create', data: post }])],
    ['nested data an array', 'editor', 'POST', '/api/acme/nested', ops([{ model: 'posts', action: 'create', data: [post] }])],
    ['nested data null', 'editor', 'POST', '/api/acme/nested', ops([{ model: 'posts', action: 'create', data: null }])],
    ['nested data with wrong types', 'editor', 'POST', '/api/acme/nested', ops([{ model: 'posts', action: 'create', data: { title: {} } }])],
    ['nested data with NUL', 'editor', 'POST', '/api/acme/nested', ops([{ model: 'posts', action: 'create', data: { title: NUL } }])],
    ['nested comment on a huge post id', 'editor', 'POST', '/api/acme/nested', ops([{ model: 'comments', action: 'create', data: { post_id: 2 ** 31, body: 'Hi' } }])],
    ...[undefined, null, '1', -1, 0, 1.5, 2 ** 31, 2 ** 53, 1e300, {}].map(
      (id): Case => [`nested update id=${JSON.stringify(id)}`, 'editor', 'POST', '/api/acme/nested', ops([{ ...update, id }])],
    ),
    ['nested delete id 2^31', 'editor', 'POST', '/api/acme/nested', ops([{ model: 'posts', action: 'delete', id: 2 ** 31 }])],
    ['nested good then bad', 'editor', 'POST', '/api/acme/nested', ops([{ model: 'posts', action: 'create', data: post }, { model: 'posts', action: 'create', data: { title: {} } }])],
    ['model nested with another model', 'editor', 'POST', '/api/acme/posts/nested', ops([{ model: 'nope', action: 'create', data: post }])],
    ['model nested without operations', 'editor', 'POST', '/api/acme/posts/nested', { body: {} }],
  ];

  it.each(CASES)('%s', (...testCase) => expectClearError(testCase));
  it.each(NESTED)('%s', (...testCase) => expectClearError(testCase));

  // Odd but well-formed: answered like any other index, the wildcards taken literally.
  const ANSWERED: [string, string][] = [
    ['search=%', 'search=%25'],
    ['search=_', 'search=_'],
    ['search=\\', 'search=%5C'],
    ['search=\\%', 'search=%5C%25'],
    ['search of 3000 %', `search=${'%25'.repeat(3000)}`],
    ['search of unicode', `search=${encodeURIComponent('ü😀')}`],
    ['sort with a trailing comma', 'sort=-title,'],
    ['empty include', 'include='],
    ['empty filter', 'filter[status]='],
    ['the last page there may be', 'page=999999999&per_page=100'],
  ];

  it.each(ANSWERED)('index ?%s', async (_label, query) => {
    const response = await server.api.get(`/api/acme/posts?${query}`, { token: tokens.editor });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toEqual(expect.any(Array));
  });
});

describe('paths and hosts', () => {
  const raw = { rawPath: true };
  const CASES: Case[] = [
    ['encoded dots as an id', 'editor', 'GET', '/api/acme/posts/%2e%2e', raw],
    ['encoded dots as the model', 'editor', 'GET', '/api/acme/%2e%2e/1', raw],
    ['encoded dots as the organization', 'editor', 'GET', '/api/%2e%2e/posts', raw],
    ['encoded slash in the id', 'editor', 'GET', '/api/acme/posts/1%2f..', raw],
    ['NUL in the id', 'editor', 'GET', '/api/acme/posts/%00', raw],
    ['NUL in the organization', 'editor', 'GET', '/api/%00/posts', raw],
    ['malformed escape in the id', 'editor', 'GET', '/api/acme/posts/%E0%A4%A', raw],
    ['malformed escape in the organization', 'editor', 'GET', '/api/%zz/posts', raw],
    ['malformed escape in the model', 'editor', 'GET', '/api/acme/%/1', raw],
    ['malformed escape in the query', 'editor', 'GET', '/api/acme/posts?search=%E0%A4%A&sort=%zz', raw],
    ['malformed escape in a query name', 'editor', 'GET', '/api/acme/posts?filter%5B%zz%5D=1', raw],
    ['double slashes', 'editor', 'GET', '/api/acme//posts', raw],
    ['trailing dots', 'editor', 'GET', '/api/acme/posts/..', raw],
    ['unknown method', 'editor', 'PROPFIND', '/api/acme/posts'],
    ['unknown route', 'editor', 'GET', '/api/acme/posts/1/nope'],
    ['malformed escape in the accept route', 'guest', 'POST', '/api/invitations/%E0%A4%A', raw],
    ['tenant host that is no organization', 'portal', 'GET', '/api/posts', { host: 'nowhere.example.test' }],
    ['tenant host with an encoded slug', 'portal', 'GET', '/api/posts', { host: 'ac%00me.example.test' }],
    ['tenant host with a port and junk', 'portal', 'GET', '/api/posts?page=0', { host: 'acme.example.test:99999' }],
    ['tenant host and another slug in the path', 'portal', 'GET', '/api/globex/organizations', { host: ACME_HOST }],
    ['tenant host, huge filter value', 'portal', 'GET', '/api/posts?filter[author_id]=99999999999', { host: ACME_HOST }],
    ['tenant host, NUL search', 'portal', 'GET', '/api/posts?search=%00', { host: ACME_HOST }],
    ['anonymous group, NUL slug', 'guest', 'GET', '/api/public/%00/posts', raw],
    ['anonymous group, huge filter value', 'guest', 'GET', '/api/public/acme/posts?filter[author_id]=99999999999'],
    ['anonymous group, a write', 'guest', 'POST', '/api/public/acme/posts', { body: { title: 'Fuzzed' } }],
    ['anonymous group, NUL search', 'guest', 'GET', '/api/public/acme/posts?search=%00'],
    ['header over the server limit', 'editor', 'GET', '/api/acme/posts', { headers: { 'x-padding': 'x'.repeat(20_000) } }],
    ['token over the service limit', 'guest', 'GET', '/api/acme/posts', { token: 'v4.public.' + 'x'.repeat(10_000) }],
  ];

  it.each(CASES)('%s', (...testCase) => expectClearError(testCase));
});

// The inputs that once answered 500, with the answers they get now.
describe('inputs PostgreSQL would refuse', () => {
  const ANSWERS: [string, string, string, RequestOptions, number, object][] = [
    ['a NUL in a body', 'POST', '/api/acme/posts', { body: { title: NUL } }, 400, { message: 'The request must not contain NUL characters (\\u0000).' }],
    ['a NUL in a query', 'GET', '/api/acme/posts?search=%00', {}, 400, { message: 'The request must not contain NUL characters (\\u0000).' }],
    ['an integer filter past the column', 'GET', '/api/acme/posts?filter[author_id]=2147483648', {}, 400, { message: 'Invalid value for filter[author_id]: 2147483648.' }],
    ['the lowest integer filter', 'GET', '/api/acme/posts?filter[author_id]=-2147483648', {}, 200, { data: [] }],
    ['a key in a body past the column', 'POST', '/api/acme/comments', { body: { post_id: 2 ** 31, body: 'Hi' } }, 422, { errors: { post_id: ['The post id field must not be greater than 2147483647.'] } }],
    ['an invitation id past the column', 'DELETE', '/api/acme/invitations/2147483648', {}, 404, { message: 'Invitation not found.' }],
  ];

  it.each(ANSWERS)('%s', async (_label, method, path, options, status, body) => {
    const response = await server.api.request(method, path, { ...options, token: tokens.owner });
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject(body);
  });

  it('answers headers over the server limit with JSON too', async () => {
    const response = await server.api.get('/api/health', { headers: { 'x-padding': 'x'.repeat(20_000) } });
    expect(response.status).toBe(431);
    expect(response.body).toEqual({ message: 'The request headers are too large.' });
  });
});

it('wrote nothing for any of it', async () => {
  expect(await rowCounts()).toEqual(seedCounts);
});
