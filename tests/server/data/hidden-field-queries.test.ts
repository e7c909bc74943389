import type { PolicyUser } from '@gatehouse/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoModels } from '../../../policies/demo-models.js';
import { demoPolicies } from '../../../policies/demo-policies.js';
import { postOptions } from '../../../policies/models/posts.js';
import { defineModel } from '../../../server/models/define-model.js';
import { PostPolicy } from '../../../policies/post-policy.js';
import { postId, startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

// Authorization 5: a field the policy keeps from a caller is kept from their queries too, or
// filtering, sorting and searching by it would read it out row by row.

/** Viewers may not read a post's status, body or creation time. */
class ReticentPostPolicy extends PostPolicy {
  override hiddenAttributesForShow(user: PolicyUser | null): string[] | null {
    return this.hasRole(user, 'viewer') ? ['status', 'body', 'created_at', 'internal_notes'] : super.hiddenAttributesForShow(user);
  }
}

/** Newest first, by a time viewers may not read: the model's order, which viewers' pages follow too. */
const models = demoModels.map((model) => (model.slug === 'posts' ? defineModel({ ...postOptions, defaultSort: '-created_at' }) : model));

let server: TestServer;
let viewer: string;
let editor: string;
let draft: number;

beforeAll(async () => {
  server = await startDataServer({ data: { models, policies: { ...demoPolicies, PostPolicy: ReticentPostPolicy } } });
  viewer = await server.login('viewer@acme.test');
  editor = await server.login('editor@acme.test');
  draft = await postId(server, 'Hiring plan');
});

afterAll(() => server.close());

const refused = (...fields: string[]) => ({
  status: 403,
  body: { message: `You are not allowed to filter, sort or search by the following field(s): ${fields.join(', ')}`, reason: { gate: 'fields', fields } },
});

describe('queries by a field the caller may not read', () => {
  it.each([
    ['a filter', () => '/posts?filter[status]=draft', ['status']],
    ['a sort', () => '/posts?sort=-created_at', ['created_at']],
    ['a search, which reads every searchable field', () => '/posts?search=engineers', ['body']],
    ['a filter and a sort, each named once', () => '/posts?filter[status]=draft&sort=created_at,title', ['status', 'created_at']],
    ['a filter on show', () => `/posts/${draft}?filter[status]=draft`, ['status']],
    ['a filter of the aggregates', () => '/posts/computed?filter[status]=draft', ['status']],
  ])('%s is refused with 403 naming the fields', async (_case, path, fields) => {
    expect(await server.api.get(`/api/acme${path()}`, { token: viewer })).toMatchObject(refused(...fields));
  });

  it('are answered to a caller who may read the fields', async () => {
    for (const path of ['/posts?filter[status]=draft&sort=-created_at&search=engineers', `/posts/${draft}?filter[status]=draft`, '/posts/computed?filter[status]=draft']) {
      expect((await server.api.get(`/api/acme${path}`, { token: editor })).status).toBe(200);
    }
  });

  it('leave out the aggregates that count by such a field, and answer the rest', async () => {
    const asViewer = await server.api.get('/api/acme/posts/computed', { token: viewer });
    expect(asViewer.status).toBe(200);
    expect(Object.keys(asViewer.body)).toEqual(['total']);
    const asEditor = await server.api.get('/api/acme/posts/computed', { token: editor });
    expect(Object.keys(asEditor.body).sort()).toEqual(['drafts', 'published', 'total']);
    expect(asViewer.body.total).toBe(asEditor.body.total);
  });

  it('leave the caller’s other queries alone', async () => {
    const index = await server.api.get('/api/acme/posts?filter[author_id]=2&sort=title', { token: viewer });
    expect(index.status).toBe(200);
    expect(index.body.data[0]).not.toHaveProperty('status');
  });
});

describe('a page’s cursor', () => {
  it('tells nothing of a hidden field the model’s order reads, and still reads the next page', async () => {
    const first = await server.api.get('/api/acme/posts?per_page=1', { token: viewer });
    const cursor = first.headers['x-next-cursor'] as string;
    expect(cursor).toBeTruthy();
    const [last] = first.body.data as { id: number }[];
    expect(last).not.toHaveProperty('created_at');
    // The text a sort key is compared as; a readable cursor carried it.
    const [hidden] = await server.sql<{ created_at: string }>('SELECT created_at::text FROM posts WHERE id = $1', [last!.id]);
    const decoded = cursor.split('.').map((part) => Buffer.from(part, 'base64url').toString('latin1'));
    expect([cursor, ...decoded].join('\n')).not.toContain(hidden!.created_at);

    const next = await server.api.get(`/api/acme/posts?per_page=1&cursor=${encodeURIComponent(cursor)}`, { token: viewer });
    const walked = await server.api.get('/api/acme/posts?per_page=2', { token: viewer });
    expect(next.body.data).toEqual(walked.body.data.slice(1));
  });
});
