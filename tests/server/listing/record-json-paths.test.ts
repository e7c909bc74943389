import { request } from 'node:http';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoData } from '../../../policies/demo-data.js';
import type { ModelDefinition } from '../../../server/models/define-model.js';
import { createTestDatabase } from '../../support/database.js';
import { ACME_HOST, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// The answers PostgreSQL writes (`recordJson: 'postgres'`, server/listing/record-json.ts) against
// those Node writes (`recordJson: 'node'`, the default), byte for byte, over one database: every demo model, every caller of the
// demo (each reads other attributes), every field, sort, count and include, hostile values in
// every column type the demo has. Shows, includes and computed attributes are Node's on both
// sides (docs/architecture/record-json.md), and still compared.

let json: TestServer;
let node: TestServer;
const statements: string[] = [];

const HOSTILE = [
  'quote " and backslash \\ and slash / </script>',
  'controls \u0001\u0007\b\f\n\r\t\u000b\u001f\u007f end',
  'unicode é ß 漢字 😀 \u2028 \u2029 \ufeff',
  '',
  ' ',
  '{"json":"in text"}',
];

// Microseconds (truncated to milliseconds), years 0-99 (which JS's Date.UTC reads as 1900-1999),
// BC, past 9999, infinity: every shape `Date#toJSON` has.
const TIMESTAMPS = [
  '2024-02-29 23:59:59.999999+00',
  '2024-03-01 00:00:00.0005+00',
  '2001-01-01 12:34:56.07+05:30',
  '0050-06-15 08:00:00.123+00',
  '0001-01-01 00:00:00+00',
  '0044-03-15 12:00:00+00 BC',
  '0001-12-31 23:59:59.999+00 BC',
  '9999-12-31 23:59:59.999999+00',
  '12345-01-01 00:00:00.001+00',
  'infinity',
  '-infinity',
];

beforeAll(async () => {
  const database = await createTestDatabase();
  const logger = pino({ level: 'debug' }, { write: (line: string) => void statements.push((JSON.parse(line) as { sql?: string }).sql ?? '') });
  json = await startDataServer({ testDatabase: database, logger, recordJson: 'postgres' });
  node = await startDataServer({ testDatabase: database, recordJson: 'node' });
  const [acme] = await json.sql<{ id: number }>("SELECT id FROM organizations WHERE slug = 'acme'");
  const [author] = await json.sql<{ id: number }>("SELECT id FROM users WHERE email = 'viewer@acme.test'");
  for (const [index, at] of TIMESTAMPS.entries()) {
    const text = HOSTILE[index % HOSTILE.length]!;
    const [post] = await json.sql<{ id: number }>(
      `INSERT INTO posts (organization_id, title, body, status, internal_notes, author_id, created_at, updated_at, deleted_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8) RETURNING id`,
      [acme!.id, `${text} ${index}`, index % 3 === 0 ? null : text, index % 2 === 0 ? 'published' : 'draft', text, index % 4 === 0 ? null : author!.id, at, index % 5 === 0 ? at : null],
    );
    await json.sql('INSERT INTO comments (organization_id, post_id, body, author_id, created_at) VALUES ($1, $2, $3, $4, $5)', [acme!.id, post!.id, text, author!.id, at]);
  }
  await json.sql("UPDATE users SET name = $1 WHERE email = 'viewer@acme.test'", [HOSTILE[1]]);
  await json.sql("UPDATE organizations SET name = $1 WHERE slug = 'acme'", [HOSTILE[2]]);
});

afterAll(async () => {
  await node?.server.close();
  await json?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

// What differs between two servers whatever they answer.
const OWN_HEADERS = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);

/** A GET over node:http, which sends the Host header a domain group needs (fetch replaces it). */
function fetchAnswer(server: TestServer, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(`${server.api.baseUrl}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const kept = Object.entries(response.headers).filter(([name]) => !OWN_HEADERS.has(name));
        resolve({ status: response.statusCode!, headers: Object.fromEntries(kept) as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      });
    })
      .on('error', reject)
      .end();
  });
}

const CURSOR = 'x-next-cursor';

/** An answer with its cursor's value left out: each cursor is encrypted afresh, so two differ byte for byte (their pages are compared instead). */
const sealed = ({ headers: { [CURSOR]: cursor, ...headers }, ...answer }: Answer) => ({ ...answer, headers, cursor: cursor !== undefined });

/** Both answers, the same byte for byte but for their cursors; whether PostgreSQL wrote the records; and both cursors, if any. */
async function bothPaths(path: string, headers: Record<string, string> = {}): Promise<{ answer: Answer; byPostgres: boolean; cursors: string[] }> {
  const before = statements.length;
  const answer = await fetchAnswer(json, path, headers);
  const byPostgres = statements.slice(before).some((text) => text.includes('concat_ws'));
  const other = await fetchAnswer(node, path, headers);
  expect(sealed(other), path).toEqual(sealed(answer));
  return { answer, byPostgres, cursors: [answer, other].flatMap(({ headers }) => headers[CURSOR] ?? []) };
}

interface Caller {
  email: string | null;
  base: string;
  login?: string;
  /** The Host of a domain group. */
  host?: string;
  models: string[];
}

const TENANT_MODELS = ['posts', 'comments', 'users', 'organizations', 'roles'];
const CALLERS: Caller[] = [
  ...['owner', 'editor', 'viewer', 'contributor'].map((role) => ({ email: `${role}@acme.test`, base: '/api/acme', models: TENANT_MODELS })),
  { email: 'admin@example.test', base: '/api/admin', login: '/api/admin/auth/login', models: ['organizations', 'users'] },
  { email: 'editor@acme.test', base: '/api', host: ACME_HOST, models: ['posts', 'comments', 'users'] },
  { email: null, base: '/api/public/acme', models: ['posts'] },
];

const model = (slug: string) => demoData.models.find((candidate) => candidate.slug === slug)!;

/** Up to two values the records hold in `column`, as a filter or a scope's argument writes them. */
const heldValues = (records: Record<string, unknown>[], column: string) =>
  [...new Set(records.map((record) => record[column]).filter((value) => value !== null && value !== undefined))].slice(0, 2).map((value) => encodeURIComponent(String(value)));

/** A page by number (and one past the last), the bare `fields`, a search that matches, each filter and each named scope: the narrowings a listing's statement carries. */
async function narrowedListings(base: string, { slug, attributes, filters, scopes, search }: ModelDefinition, records: Record<string, unknown>[], headers: Record<string, string>, dataIndex: boolean) {
  // The demo's one scope argument is an author's id: the last integer attribute's value (`author_id`).
  const integers = Object.keys(attributes).filter((name) => attributes[name] === 'integer');
  const argument = heldValues(records, integers.at(-1) ?? 'id')[0] ?? '1';
  const queries = [
    '?page=2&per_page=3',
    '?page=99&per_page=100',
    `?fields=${Object.keys(attributes)[0]}`,
    ...(search.length > 0 ? ['?search=e'] : []),
    ...filters.map((column) => `?filter[${column}]=${heldValues(records, column).join(',') || '1'}`),
    ...Object.entries(scopes).map(([name, scope]) => (scope.argument === null ? `?scope=${name}` : `?scope[${name}]=${argument}`)),
  ];
  let listed = 0;
  for (const query of queries) listed += (await bothPaths(`${base}${query}`, headers)).byPostgres ? 1 : 0;
  if (dataIndex) expect(listed, `${slug}: narrowed listings written by PostgreSQL`).toBe(queries.length);
}

describe.each(CALLERS)('$email at $base', (caller) => {
  let headers: Record<string, string>;

  beforeAll(async () => {
    const { email, login, host } = caller;
    // The demo's members belong to the tenant group; the domain group (`portal`) gets one of its own.
    if (email !== null && host) {
      await json.sql(`INSERT INTO user_roles (user_id, organization_id, role_id, route_group)
        SELECT u.id, o.id, r.id, 'portal' FROM users u, organizations o, roles r WHERE u.email = $1 AND o.slug = 'acme' AND r.slug = 'editor'
        ON CONFLICT DO NOTHING`, [email]);
    }
    const token = email === null ? null : await json.login(email, { ...(login ? { path: login } : {}), ...(host ? { host } : {}) });
    headers = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(host ? { host } : {}) };
  });

  it.each(caller.models)('%s: every listing and record the same from both paths', async (slug) => {
    const { attributes, sorts, relations, computedAttributes, softDeletes } = model(slug);
    const base = `${caller.base}/${slug}`;
    const listings = [
      '',
      '?per_page=100',
      '?per_page=3',
      ...Object.keys(attributes).map((name) => `?fields[${slug}]=${name}`),
      `?fields[${slug}]=${Object.keys(attributes).reverse().join(',')}`,
      ...['id', '', 'nope', `id,${Object.keys(attributes)[0]},id`].map((fields) => `?fields[${slug}]=${fields}`),
      ...sorts.flatMap((column) => [`?sort=${column}&per_page=4`, `?sort=-${column}&per_page=4`]),
      '?search=%22',
      ...(softDeletes ? ['/trashed'] : []),
    ].map((query) => (query.startsWith('/') ? `${base}${query}` : `${base}${query}`));
    let listedByPostgres = 0;
    for (const path of listings) {
      const { answer, byPostgres, cursors } = await bothPaths(path, headers);
      if (answer.status === 200) listedByPostgres += byPostgres ? 1 : 0;
      // Each path's cursor leads both to the same next page.
      const followed: Answer[] = [];
      for (const cursor of cursors) followed.push((await bothPaths(`${path}${path.includes('?') ? '&' : '?'}cursor=${cursor}`, headers)).answer);
      const [fromPostgres, fromNode] = followed;
      if (fromNode) expect(sealed(fromNode), path).toEqual(sealed(fromPostgres!));
    }
    for (const count of ['none', 'planned', 'estimated', 'exact']) await bothPaths(base, { ...headers, prefer: `count=${count}` });
    // Includes and computed attributes need Node: both paths are Node's, and still the same.
    for (const name of Object.keys(relations)) await bothPaths(`${base}?include=${name}`, headers);
    for (const name of Object.keys(computedAttributes)) await bothPaths(`${base}?computed_attributes=${name}`, headers);
    const { answer } = await bothPaths(`${base}?per_page=100`, headers);
    if (answer.status === 200) {
      // The tenant group's `/roles` is the members' list of roles (serving-routes.ts), not the data index.
      const dataIndex = !(slug === 'roles' && caller.base === '/api/acme');
      const records = (JSON.parse(answer.body) as { data: Record<string, unknown>[] }).data;
      await narrowedListings(base, model(slug), records, headers, dataIndex);
      const ids = records.map((record) => record.id as number);
      for (const id of ids) await bothPaths(`${base}/${id}`, headers);
      const [first] = ids;
      if (first !== undefined) {
        for (const name of Object.keys(attributes)) await bothPaths(`${base}/${first}?fields[${slug}]=${name}`, headers);
        for (const name of Object.keys(relations)) await bothPaths(`${base}/${first}?include=${name}`, headers);
        for (const name of Object.keys(computedAttributes)) await bothPaths(`${base}/${first}?computed_attributes=${name}`, headers);
      }
      if (dataIndex) expect(listedByPostgres).toBeGreaterThan(0);
    }
    await bothPaths(`${base}/999999`, headers);
  });
});

describe('the statements PostgreSQL writes JSON in', () => {
  it('read through the caller’s record conditions, as Node’s do', async () => {
    // The contributor reads posts through `posts.index:visible` and `posts.show:visible`: the published ones and its own.
    const headers = { authorization: `Bearer ${await json.login('contributor@acme.test')}` };
    const [contributor] = await json.sql<{ id: number }>("SELECT id FROM users WHERE email = 'contributor@acme.test'");
    const { answer, byPostgres } = await bothPaths('/api/acme/posts?per_page=100', headers);
    expect(byPostgres).toBe(true);
    const listed = (JSON.parse(answer.body) as { data: { id: number; status: string; author_id: number | null }[] }).data;
    expect(listed.length).toBeGreaterThan(0);
    for (const post of listed) expect(post.status === 'published' || post.author_id === contributor!.id).toBe(true);
    const [hidden] = await json.sql<{ id: number }>("SELECT id FROM posts WHERE status = 'draft' AND author_id IS DISTINCT FROM $1 AND deleted_at IS NULL LIMIT 1", [contributor!.id]);
    expect((await bothPaths(`/api/acme/posts/${hidden!.id}`, headers)).answer.status).toBe(404);
  });
});

describe('a reader whose read gate changed since its last read', () => {
  it('gets the fields it reads now, from PostgreSQL, the same as from Node', async () => {
    const token = await json.login('viewer@acme.test');
    const headers = { authorization: `Bearer ${token}` };
    const paths = ['/api/acme/posts?per_page=100', '/api/acme/posts?fields[posts]=title,internal_notes'];
    for (const path of paths) expect((await bothPaths(path, headers)).answer.body).not.toContain('internal_notes');
    const grant = (granted: string[]) =>
      json.sql("UPDATE user_roles SET granted_permissions = $1 WHERE user_id = (SELECT id FROM users WHERE email = 'viewer@acme.test') AND route_group = 'tenant'", [granted]);
    // posts.update lets the viewer read the internal notes: its reads were planned without them.
    await grant(['comments.store', 'posts.update']);
    try {
      for (const path of paths) {
        const { answer, byPostgres } = await bothPaths(path, headers);
        expect(byPostgres).toBe(true);
        expect(answer.body).toContain('"internal_notes"');
      }
    } finally {
      await grant(['comments.store']);
    }
  });
});
