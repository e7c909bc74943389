import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDataServer } from '../server/support/data-server.js';
import type { TestServer } from '../server/support/test-server.js';
import { launchChromium, screenshot, type Browser } from './support/chromium.js';
import { DemoPage } from './support/demo-page.js';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startDataServer({ webRoot: inject('webRoot') }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function demoPage(): Promise<DemoPage> {
  const demo = new DemoPage(await browser.context.newPage(), server.api.baseUrl);
  await demo.open();
  return demo;
}

describe('the demo web app in Chromium', () => {
  it('shows the editor the internal notes and the create button', async () => {
    const demo = await demoPage();
    await screenshot(demo.page, 'sign-in');
    await demo.signInAs('editor@acme.test');
    const table = await demo.postsTable();
    expect(await table.getByRole('columnheader', { name: 'Internal notes' }).count()).toBe(1);
    expect(await table.getByText('Do not share the Q3 dates yet.').count()).toBe(1);
    expect(await demo.page.getByRole('link', { name: 'New post' }).count()).toBe(1);
    await screenshot(demo.page, 'posts-as-editor');

    await demo.openPost('Quarterly roadmap');
    const notes = demo.page.getByRole('region', { name: 'Internal notes' });
    expect(await notes.textContent()).toContain('Do not share the Q3 dates yet.');
    expect(await demo.page.getByRole('link', { name: 'Edit' }).count()).toBe(1);
    await demo.page.close();
  });

  it('shows the viewer no internal notes and no create button', async () => {
    const demo = await demoPage();
    await demo.signInAs('viewer@acme.test');
    const table = await demo.postsTable();
    expect(await table.getByRole('link', { name: 'Quarterly roadmap' }).count()).toBe(1);
    expect(await table.getByRole('columnheader', { name: 'Internal notes' }).count()).toBe(0);
    expect(await demo.page.getByRole('link', { name: 'New post' }).count()).toBe(0);
    expect(await demo.page.getByText('Do not share the Q3 dates yet.').count()).toBe(0);
    await screenshot(demo.page, 'posts-as-viewer');

    await demo.openPost('Quarterly roadmap');
    await demo.page.getByRole('heading', { name: /^Comments/ }).waitFor();
    expect(await demo.page.getByRole('region', { name: 'Internal notes' }).count()).toBe(0);
    expect(await demo.page.getByText('Do not share the Q3 dates yet.').count()).toBe(0);
    expect(await demo.page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    expect(await demo.page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    // The viewer's per-user grant: comments.store.
    expect(await demo.page.getByRole('button', { name: 'Comment' }).count()).toBe(1);
    await demo.page.close();
  });

  it("shows the contributor published posts and its own, with Edit and Delete on its own only", async () => {
    const token = await server.login('contributor@acme.test');
    expect((await server.api.post('/api/acme/posts', { token, body: { title: 'Cora draft', status: 'draft' } })).status).toBe(201);
    const demo = await demoPage();
    await demo.signInAs('contributor@acme.test');
    const table = await demo.postsTable();
    expect(await table.getByRole('link', { name: 'Cora draft' }).count()).toBe(1);
    expect(await table.getByRole('link', { name: 'Hiring plan' }).count()).toBe(0);

    await demo.openPost('Cora draft');
    await demo.page.getByRole('link', { name: 'Edit' }).waitFor();
    expect(await demo.page.getByRole('button', { name: 'Delete' }).count()).toBe(1);
    await demo.page.getByRole('link', { name: '← All posts' }).click();
    // Its rules are loaded (the Edit above): a post it may read but not change shows neither button.
    await demo.openPost('Welcome to Acme');
    await demo.page.getByRole('heading', { name: /^Comments/ }).waitFor();
    expect(await demo.page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    expect(await demo.page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await demo.page.close();
  });

  it('creates a post that then shows up in the list', async () => {
    const demo = await demoPage();
    await demo.signInAs('editor@acme.test');
    await demo.page.getByRole('link', { name: 'New post' }).click();
    await demo.page.getByLabel('Title').fill('Written in Chromium');
    await demo.page.getByLabel('Body').fill('A post made through the web app.');
    await demo.page.getByLabel('Status').selectOption('published');
    await demo.page.getByRole('button', { name: 'Create post' }).click();
    await demo.page.getByRole('heading', { level: 1, name: 'Written in Chromium' }).waitFor();
    expect(await demo.page.getByText('A post made through the web app.').count()).toBe(1);

    await demo.page.getByRole('link', { name: '← All posts' }).click();
    const table = await demo.postsTable();
    await table.getByRole('link', { name: 'Written in Chromium' }).waitFor();
    const [stored] = await server.sql<{ title: string; status: string }>("SELECT title, status FROM posts WHERE title = 'Written in Chromium'");
    expect(stored).toEqual({ title: 'Written in Chromium', status: 'published' });
    await demo.page.close();
  });

  it('finds a post by search and sort, edits it, trashes and restores it, and pages its history', async () => {
    const token = await server.login('editor@acme.test');
    const created = await server.api.post('/api/acme/posts', { token, body: { title: 'Zebra crossing', status: 'draft' } });
    expect(created.status).toBe(201);
    // Created and 15 updates: one entry more than a page of the trail holds.
    for (let version = 1; version <= 15; version += 1) {
      const updated = await server.api.request('PUT', `/api/acme/posts/${created.body.id}`, { token, body: { body: `Version ${version}` } });
      expect(updated.status).toBe(200);
    }
    const demo = await demoPage();
    await demo.signInAs('editor@acme.test');
    const table = await demo.postsTable();
    const titles = () => table.getByRole('row').locator('td:first-child').allTextContents();
    await demo.page.getByLabel('Search posts').fill('zebra');
    await expect.poll(titles).toEqual(['Zebra crossing']);
    await demo.page.getByLabel('Search posts').fill('');
    await demo.page.getByLabel('Sort').selectOption({ label: 'Title Z–A' });
    await expect.poll(async () => (await titles())[0]).toBe('Zebra crossing');

    await demo.openPost('Zebra crossing');
    const history = demo.page.locator('ol.history > li');
    await demo.page.getByText('Page 1 of 2 · 16 changes').waitFor();
    expect(await history.count()).toBe(15);
    await demo.page.getByRole('button', { name: 'Next →' }).click();
    await demo.page.getByText('Page 2 of 2 · 16 changes').waitFor();
    expect(await history.allTextContents()).toEqual([expect.stringMatching(/^updated by user/)]);

    await demo.page.getByRole('link', { name: 'Edit' }).click();
    await demo.page.getByLabel('Title').fill('Zebra crossing, repainted');
    await demo.page.getByRole('button', { name: 'Save changes' }).click();
    await demo.page.getByRole('heading', { level: 1, name: 'Zebra crossing, repainted' }).waitFor();
    await demo.page.getByRole('button', { name: 'Delete' }).click();
    await demo.page.getByRole('button', { name: 'Yes, delete' }).click();
    await demo.postsTable();
    expect(await demo.page.getByRole('link', { name: 'Zebra crossing, repainted' }).count()).toBe(0);

    await demo.page.getByRole('link', { name: 'Trash' }).click();
    const trash = demo.page.getByRole('table', { name: 'Deleted posts' });
    const row = trash.getByRole('row').filter({ hasText: 'Zebra crossing, repainted' });
    await row.getByRole('button', { name: 'Restore' }).click();
    await row.waitFor({ state: 'detached' });
    await demo.page.getByRole('link', { name: 'Posts', exact: true }).click();
    await (await demo.postsTable()).getByRole('link', { name: 'Zebra crossing, repainted' }).waitFor();
    const [stored] = await server.sql<{ title: string; deleted_at: Date | null }>(`SELECT title, deleted_at FROM posts WHERE id = ${Number(created.body.id)}`);
    expect(stored).toEqual({ title: 'Zebra crossing, repainted', deleted_at: null });
    await demo.page.close();
  });

  it("shows the server's 403 message for a field the editor may not set", async () => {
    const demo = await demoPage();
    await demo.signInAs('editor@acme.test');
    await demo.page.getByRole('link', { name: 'New post' }).click();
    await demo.page.getByLabel('Title').fill('Has notes');
    await demo.page.getByLabel('Internal notes').fill('Not mine to write.');
    await demo.page.getByRole('button', { name: 'Create post' }).click();
    const alert = demo.page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('You are not allowed to set the following field(s): internal_notes');
    expect(await alert.textContent()).toContain('You may not set internal_notes (PostPolicy.permittedAttributesForCreate).');
    await screenshot(demo.page, 'forbidden-field');
    expect(await server.sql("SELECT id FROM posts WHERE title = 'Has notes'")).toEqual([]);
    await demo.page.close();
  });

  it('names PostPolicy.create when a viewer granted posts.store creates a post anyway', async () => {
    await server.sql("UPDATE user_roles SET granted_permissions = granted_permissions || '{posts.store}' WHERE user_id = (SELECT id FROM users WHERE email = 'viewer@acme.test')");
    const demo = await demoPage();
    try {
      await demo.signInAs('viewer@acme.test');
      // The app offers no New post link (its abilities follow the policy): the viewer types the address.
      await demo.postsTable();
      expect(await demo.page.getByRole('link', { name: 'New post' }).count()).toBe(0);
      await demo.page.goto(`${server.api.baseUrl}/#/posts/new`);
      await demo.page.getByLabel('Title').fill('Viewer post');
      await demo.page.getByRole('button', { name: 'Create post' }).click();
      const alert = demo.page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toContain('This action is unauthorized. Refused by PostPolicy.create.');
      expect(await server.sql("SELECT id FROM posts WHERE title = 'Viewer post'")).toEqual([]);
    } finally {
      await server.sql("UPDATE user_roles SET granted_permissions = array_remove(granted_permissions, 'posts.store') WHERE user_id = (SELECT id FROM users WHERE email = 'viewer@acme.test')");
      await demo.page.close();
    }
  });

  it('shows the editor what they may do: their role, permissions and rules, the deny included', async () => {
    const demo = await demoPage();
    await demo.signInAs('editor@acme.test');
    await demo.page.getByRole('link', { name: 'My permissions' }).click();
    await demo.page.getByTestId('role').waitFor();
    expect(await demo.page.getByTestId('role').textContent()).toBe('editor');
    const allowed = demo.page.getByRole('table', { name: 'Allowed actions' });
    expect(await allowed.getByLabel('update posts: allowed', { exact: true }).count()).toBe(1);
    expect(await allowed.getByLabel('forceDelete posts: denied', { exact: true }).count()).toBe(1);
    expect(await allowed.getByLabel('store users: denied', { exact: true }).count()).toBe(1);
    const rules = demo.page.getByRole('table', { name: 'Rules' }).getByRole('row');
    expect(await rules.filter({ hasText: 'cannot' }).filter({ hasText: 'forceDelete' }).count()).toBe(1);
    await demo.page.close();
  });

  it("explains to the owner why the editor may not force-delete a post, naming the editor's deny", async () => {
    const demo = await demoPage();
    await demo.signInAs('owner@acme.test');
    await demo.page.getByRole('link', { name: 'My permissions' }).click();
    const [post] = await server.sql<{ id: number }>("SELECT id FROM posts WHERE title = 'Quarterly roadmap'");
    const form = demo.page.getByRole('region', { name: 'Explain' });
    await form.getByLabel('Member').selectOption({ label: 'editor@acme.test' });
    await form.getByLabel('Action').selectOption('forceDelete');
    await form.getByLabel('Record id').fill(String(post!.id));
    await form.getByRole('button', { name: 'Explain' }).click();
    const verdict = demo.page.getByTestId('verdict');
    await verdict.waitFor();
    expect(await verdict.textContent()).toBe('Refused at Policy (403)');
    const policy = demo.page.locator('[data-gate="policy"]');
    expect(await policy.textContent()).toContain('lacks posts.forceDelete');
    expect(await policy.textContent()).toContain('denied for this member: posts.forceDelete');
    await screenshot(demo.page, 'explain-decision');
    await demo.page.close();
  });

  it('switches to another organization the user belongs to, by its slug, and lists its posts', async () => {
    const member = `INSERT INTO user_roles (user_id, organization_id, role_id, route_group)
      SELECT u.id, o.id, r.id, 'tenant' FROM users u, organizations o, roles r WHERE u.email = 'editor@acme.test' AND o.slug = 'globex' AND r.slug = 'viewer'`;
    await server.sql(member);
    const demo = await demoPage();
    try {
      await demo.signInAs('editor@acme.test');
      await (await demo.postsTable()).getByRole('link', { name: 'Quarterly roadmap' }).waitFor();
      await demo.page.getByLabel('Organization slug').fill('globex');
      await demo.page.getByText('Switch to Globex').waitFor();
      await demo.page.getByRole('button', { name: 'Switch', exact: true }).click();
      await (await demo.postsTable()).getByRole('link', { name: 'Globex launch' }).waitFor();
      expect(await demo.page.getByRole('link', { name: 'Quarterly roadmap' }).count()).toBe(0);
      expect(await demo.page.evaluate(() => window.localStorage.getItem('organization_slug'))).toBe('globex');
    } finally {
      await server.sql("DELETE FROM user_roles WHERE organization_id = (SELECT id FROM organizations WHERE slug = 'globex') AND user_id = (SELECT id FROM users WHERE email = 'editor@acme.test')");
      await demo.page.close();
    }
  });

  it('signs a second tab out when the first one signs out', async () => {
    const first = await demoPage();
    await first.signInAs('editor@acme.test');
    await first.postsTable();
    const second = new DemoPage(await browser.context.newPage(), server.api.baseUrl);
    await second.page.goto(`${server.api.baseUrl}/#/posts`);
    await second.postsTable();

    await first.page.getByRole('button', { name: 'Sign out' }).click();
    await first.page.getByRole('heading', { name: 'Demo logins' }).waitFor();
    // No reload: the second tab hears the storage change and shows the sign-in page.
    await second.page.getByRole('heading', { name: 'Demo logins' }).waitFor({ timeout: 5_000 });
    expect(await second.page.getByTestId('signed-in-user').count()).toBe(0);
    await first.page.close();
    await second.page.close();
  });

  it("lists the admin route group's users for the admin", async () => {
    const demo = await demoPage();
    await demo.signInAs('admin@example.test');
    const table = demo.page.getByRole('table', { name: 'Users' });
    await table.waitFor();
    expect(await table.getByText('viewer@acme.test').count()).toBe(1);
    expect(await table.getByText('owner@globex.test').count()).toBe(1);
    await demo.page.close();
  });
});

describe('the API reference in Chromium', () => {
  it('renders the OpenAPI document served at /api/openapi.json', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.api.baseUrl}/api/docs`);
    const title = page.locator('.swagger-ui .info .title');
    // Swagger UI parses a few hundred operations first: slow on a busy machine.
    await title.waitFor({ timeout: 40_000 });
    const { body: spec } = await server.api.get('/api/openapi.json');
    expect(await title.textContent()).toContain(spec.info.title);
    await page.locator('.opblock-tag[data-tag="posts"]').click();
    await page.locator('.opblock-summary-path[data-path="/api/{organization}/posts"]').first().waitFor();
    await screenshot(page, 'api-reference');
    await page.close();
  }, 90_000);
});
