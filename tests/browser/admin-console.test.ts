import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../../harness/cli.js';
import { idOf, startDataServer } from '../server/support/data-server.js';
import type { TestServer } from '../server/support/test-server.js';
import { launchChromium, screenshot, type Browser } from './support/chromium.js';
import { DemoPage } from './support/demo-page.js';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startDataServer({ webRoot: inject('webRoot'), decisionLog: { store: 'database' }, services: { billing: { resources: { invoices: ['index', 'show', 'store', 'update', 'approve'] } } } }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function signedIn(email: string, hash = ''): Promise<DemoPage> {
  const demo = new DemoPage(await browser.context.newPage(), server.api.baseUrl);
  await demo.open();
  await demo.signInAs(email);
  if (hash) await demo.page.goto(`${server.api.baseUrl}/#${hash}`);
  return demo;
}

const rolePermissions = async (role: string) =>
  (
    await server.sql<{ permissions: string[] }>(
      "SELECT permissions FROM org_role_permissions JOIN roles ON roles.id = role_id JOIN organizations o ON o.id = organization_id WHERE roles.slug = $1 AND o.slug = 'acme'",
      [role],
    )
  )[0]!.permissions;

describe('the administration console in Chromium', () => {
  it('lets the owner take posts.update from the editor role in the matrix, after showing the change', async () => {
    const owner = await signedIn('owner@acme.test');
    await owner.page.getByRole('link', { name: 'Roles' }).click();
    await owner.page.getByRole('tab', { name: 'Editor' }).click();
    const matrix = owner.page.getByRole('table', { name: 'Permissions of Editor', exact: true });
    const postsRow = matrix.getByRole('row').filter({ has: owner.page.getByRole('rowheader', { name: 'posts' }) });
    // posts.* implies every action of the row, which shows as checked and locked.
    expect(await postsRow.getByRole('checkbox', { name: 'posts.update' }).isChecked()).toBe(true);
    expect(await postsRow.getByRole('checkbox', { name: 'posts.update' }).isDisabled()).toBe(true);
    // The owner holds `*`, so may give users.store though no policy lets anyone create users.
    expect(await matrix.getByRole('checkbox', { name: 'users.store' }).isEnabled()).toBe(true);
    await screenshot(owner.page, 'console-roles');

    await postsRow.getByRole('checkbox', { name: 'posts.*' }).uncheck();
    for (const action of ['index', 'show', 'store', 'destroy', 'trashed', 'restore', 'forceDelete']) {
      await postsRow.getByRole('checkbox', { name: `posts.${action}` }).check();
    }
    await owner.page.getByRole('button', { name: 'Review changes' }).click();
    const review = owner.page.getByRole('dialog', { name: 'Changes to save' });
    expect(await review.textContent()).toContain('−posts.*');
    expect(await review.textContent()).not.toContain('posts.update');
    expect(await rolePermissions('editor')).toContain('posts.*');
    const writes: string[] = [];
    owner.page.on('request', (request) => {
      if (request.method() !== 'GET') writes.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await review.getByRole('button', { name: 'Confirm and save' }).click();
    await review.waitFor({ state: 'detached' });
    // The save says so, until the next change.
    await owner.page.getByRole('status').filter({ hasText: 'Saved the permissions of Editor.' }).waitFor();
    expect(writes).toEqual([expect.stringMatching(/^PUT \/api\/acme\/roles\/\d+\/permissions$/)]);
    const saved = await rolePermissions('editor');
    expect(saved).not.toContain('posts.*');
    expect(saved).not.toContain('posts.update');
    expect(saved).toContain('posts.destroy');

    // The audit trail holds the change, the old and the new permissions side by side.
    await owner.page.getByRole('link', { name: 'Audit' }).click();
    await owner.page.getByLabel('Model').selectOption('role_permissions');
    const change = owner.page.getByRole('table', { name: 'Audit trail' }).getByRole('row').filter({ hasText: 'role_permissions' });
    const [oldValues, newValues] = [change.getByRole('cell').nth(5), change.getByRole('cell').nth(6)];
    expect(await oldValues.textContent()).toContain('"posts.*"');
    expect(await newValues.textContent()).not.toContain('"posts.*"');
    expect(await newValues.textContent()).toContain('"posts.destroy"');
    await owner.page.close();

    const editor = await signedIn('editor@acme.test');
    await editor.openPost('Quarterly roadmap');
    await editor.page.getByRole('button', { name: 'Delete' }).waitFor();
    expect(await editor.page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    await editor.page.close();
  });

  it('shows the refusal when an editor with memberships.update grants a permission they do not hold', async () => {
    const editorId = await idOf(server, 'users', 'email', 'editor@acme.test');
    await server.sql("UPDATE user_roles SET granted_permissions = ARRAY['memberships.index', 'memberships.update', 'roles.show'] WHERE user_id = $1", [editorId]);
    const viewerId = await idOf(server, 'users', 'email', 'viewer@acme.test');
    const before = await server.sql('SELECT granted_permissions FROM user_roles WHERE user_id = $1', [viewerId]);

    const editor = await signedIn('editor@acme.test');
    await editor.page.getByRole('link', { name: 'Members' }).click();
    const members = editor.page.getByRole('table', { name: 'Members' });
    await members.getByRole('row').filter({ hasText: 'viewer@acme.test' }).getByRole('button', { name: 'Edit permissions' }).click();
    const editorGroup = editor.page.getByRole('group', { name: 'Permissions of viewer@acme.test' });
    await editorGroup.getByLabel('Granted: resource').selectOption('posts');
    await editorGroup.getByLabel('Granted: action').selectOption('forceDelete');
    await editorGroup.getByRole('button', { name: 'Add posts.forceDelete' }).click();
    await screenshot(editor.page, 'console-members');
    await editorGroup.getByRole('button', { name: 'Save permissions' }).click();
    const alert = editor.page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('You do not hold the permission posts.forceDelete, so you cannot grant or change it.');
    expect(await server.sql('SELECT granted_permissions FROM user_roles WHERE user_id = $1', [viewerId])).toEqual(before);

    // The matrix offers only what the editor holds (posts.forceDelete is denied them), and says why.
    await editor.page.getByRole('link', { name: 'Roles' }).click();
    await editor.page.getByRole('tab', { name: 'Viewer' }).click();
    const matrix = editor.page.getByRole('table', { name: 'Permissions of Viewer', exact: true });
    const forceDelete = matrix.getByRole('checkbox', { name: 'posts.forceDelete' });
    expect(await forceDelete.isDisabled()).toBe(true);
    expect(await forceDelete.getAttribute('aria-description')).toBe('You do not hold posts.forceDelete');
    expect(await matrix.getByRole('checkbox', { name: 'posts.destroy' }).isEnabled()).toBe(true);
    await editor.page.close();
  });

  it('shows the owner the refusals of changing their own role and of removing the last owner', async () => {
    const owner = await signedIn('owner@acme.test', '/admin/members');
    owner.page.on('dialog', (dialog) => void dialog.accept());
    const row = owner.page.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: 'owner@acme.test' });
    const alert = owner.page.getByRole('alert');
    await row.getByRole('combobox', { name: 'Role of owner@acme.test' }).selectOption({ label: 'Editor' });
    await alert.filter({ hasText: 'You cannot change your own role.' }).waitFor();
    await row.getByRole('button', { name: 'Remove' }).click();
    // The row shows the latest refusal, not the earlier one.
    await alert.filter({ hasText: 'The last owner of the organization cannot be demoted, removed or denied a permission of the owner role.' }).waitFor();
    expect(await alert.count()).toBe(1);
    expect(await server.sql("SELECT 1 FROM user_roles JOIN users ON users.id = user_id JOIN roles ON roles.id = role_id WHERE email = 'owner@acme.test' AND roles.slug = 'owner'")).toHaveLength(1);
    await owner.page.close();
  });

  it('shows the viewer no administration and, at a console URL, the refusal', async () => {
    const viewer = await signedIn('viewer@acme.test');
    // The navigation reads the viewer's abilities: count its links only once they have arrived.
    await viewer.page.getByRole('link', { name: 'My permissions' }).click();
    await viewer.page.getByLabel('Effective permissions').waitFor();
    for (const name of ['Members', 'Roles', 'Invitations', 'Audit', 'Decisions']) {
      expect(await viewer.page.getByRole('link', { name, exact: true }).count()).toBe(0);
    }
    await viewer.page.goto(`${server.api.baseUrl}/#/admin/members`);
    const alert = viewer.page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('This action is unauthorized. You lack memberships.index.');
    expect(await viewer.page.getByRole('table', { name: 'Members' }).count()).toBe(0);
    // Only the refusal: no form to send invitations the server would refuse anyway.
    await viewer.page.goto(`${server.api.baseUrl}/#/admin/invitations`);
    await alert.filter({ hasText: 'This action is unauthorized. You lack invitations.index.' }).waitFor();
    expect(await viewer.page.getByRole('form', { name: 'Invite someone' }).count()).toBe(0);
    await viewer.page.close();
  });

  // It also starts a `gatehouse` process, which alone can take seconds on a busy machine.
  it('sends, resends and cancels an invitation, whose mails the outbox then holds', { timeout: 60_000 }, async () => {
    // The mail worker delivers queued mail to the outbox after the answer: wait for it.
    const delivered = () => expect.poll(async () => (await server.sql("SELECT 1 FROM mail_outbox WHERE recipient = 'new.hire@acme.test'")).length, { timeout: 10_000 });
    const owner = await signedIn('owner@acme.test', '/admin/invitations');
    const form = owner.page.getByRole('form', { name: 'Invite someone' });
    await form.getByLabel('Email').fill('new.hire@acme.test');
    await form.getByLabel('Role').selectOption({ label: 'Viewer' });
    await form.getByRole('button', { name: 'Send invitation' }).click();
    const row = owner.page.getByRole('table', { name: 'Invitations' }).getByRole('row').filter({ hasText: 'new.hire@acme.test' });
    await row.getByRole('cell', { name: 'pending' }).waitFor();
    await delivered().toBe(1);
    await row.getByRole('button', { name: 'Resend' }).click();
    await delivered().toBe(2);
    await row.getByRole('button', { name: 'Cancel' }).click();
    await row.getByRole('cell', { name: 'cancelled' }).waitFor();
    // The only invitation of this test database is no longer pending.
    await owner.page.getByLabel('Status').selectOption('pending');
    await owner.page.getByText('No invitations.').waitFor();
    await owner.page.getByLabel('Status').selectOption('cancelled');
    await row.waitFor();
    await owner.page.close();

    const mail = await runCli(['mail', '--last', '1'], server.database.ownerUrl);
    expect(mail.code).toBe(0);
    expect(mail.stdout).toContain('To: new.hire@acme.test');
  });

  it('lists refusals by model, action and record, explains a record refusal, and says why it cannot explain the others', async () => {
    const viewerToken = await server.login('viewer@acme.test');
    const [post] = await server.sql<{ id: number }>("SELECT id FROM posts WHERE title = 'Quarterly roadmap'");
    expect((await server.api.delete(`/api/acme/posts/${post!.id}`, { token: viewerToken })).status).toBe(403);
    expect((await server.api.get('/api/acme/invitations', { token: viewerToken })).status).toBe(403);
    await expect.poll(async () => (await server.sql("SELECT DISTINCT permission FROM decision_logs WHERE permission IN ('posts.destroy', 'invitations.index')")).length).toBe(2);

    const owner = await signedIn('owner@acme.test');
    await owner.page.getByRole('link', { name: 'Decisions' }).click();
    const table = owner.page.getByRole('table', { name: 'Decisions' });
    // The names come from the members list, which may answer after the decisions: wait for both.
    const row = table.getByRole('row').filter({ hasText: 'posts.destroy' }).filter({ hasText: 'Vera Viewer' }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain(`posts destroy #${post!.id}`);
    expect(await table.textContent()).not.toContain('/api/:organization/:model/:id');
    await row.getByRole('button', { name: 'Explain' }).click();
    const tree = owner.page.getByLabel('Decision', { exact: true });
    await tree.waitFor();
    expect(await tree.textContent()).toContain('posts.destroy');
    expect(await owner.page.getByRole('alert').allTextContents()).toEqual([]);
    await screenshot(owner.page, 'console-decisions');

    const administration = table.getByRole('row').filter({ hasText: 'invitations.index' }).first();
    expect(await administration.getByRole('button', { name: 'Explain' }).count()).toBe(0);
    expect(await administration.textContent()).toContain("No model was recorded for GET /api/:organization/invitations: Explain covers requests for a model's data.");
    await owner.page.close();
  });

  it('fits the audit trail into a 1,280 px window, long permission lists included', async () => {
    const ownerToken = await server.login('owner@acme.test');
    const [viewer] = await server.sql<{ id: number }>("SELECT id FROM roles WHERE slug = 'viewer'");
    const many = ['posts', 'comments', 'users', 'invitations', 'memberships'].flatMap((model) => ['index', 'show', 'store', 'update', 'destroy'].map((action) => `${model}.${action}`));
    expect((await server.api.request('PUT', `/api/acme/roles/${viewer!.id}/permissions`, { token: ownerToken, body: { permissions: many } })).status).toBe(200);

    const owner = await signedIn('owner@acme.test', '/admin/audit');
    await owner.page.getByLabel('Model').selectOption('role_permissions');
    await owner.page.getByRole('table', { name: 'Audit trail' }).getByText('"memberships.destroy"').first().waitFor();
    const widths = await owner.page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
    expect(widths.window).toBe(1280);
    expect(widths.page).toBeLessThanOrEqual(widths.window);
    await owner.page.close();
  });

  it("gives the contributor a conditioned permission from the matrix's condition picker, and takes one away", async () => {
    const owner = await signedIn('owner@acme.test', '/admin/roles');
    await owner.page.getByRole('tab', { name: 'Contributor' }).click();
    const matrix = owner.page.getByRole('table', { name: 'Permissions of Contributor', exact: true });
    const posts = matrix.getByRole('row').filter({ has: owner.page.getByRole('rowheader', { name: 'posts' }) });
    await posts.getByRole('button', { name: 'Remove posts.update:own' }).waitFor();
    expect(await posts.getByRole('code').allTextContents()).toEqual(expect.arrayContaining(['posts.update:own', 'posts.destroy:own']));
    // comments declares no condition, so its row offers none.
    expect(await matrix.getByRole('combobox', { name: 'comments: condition' }).count()).toBe(0);
    expect(await posts.getByRole('combobox', { name: 'posts: action on some records' }).locator('option').allTextContents()).not.toContain('store');

    await posts.getByRole('button', { name: 'Remove posts.destroy:own' }).click();
    await posts.getByRole('combobox', { name: 'posts: action on some records' }).selectOption('trashed');
    await posts.getByRole('combobox', { name: 'posts: condition' }).selectOption('own');
    await posts.getByRole('button', { name: 'Add posts.trashed:own' }).click();
    await owner.page.getByRole('button', { name: 'Review changes' }).click();
    const review = owner.page.getByRole('dialog', { name: 'Changes to save' });
    expect(await review.textContent()).toContain('+posts.trashed:own');
    expect(await review.textContent()).toContain('−posts.destroy:own');
    await review.getByRole('button', { name: 'Confirm and save' }).click();
    await owner.page.getByRole('status').filter({ hasText: 'Saved the permissions of Contributor.' }).waitFor();
    const saved = await rolePermissions('contributor');
    expect(saved).toContain('posts.trashed:own');
    expect(saved).not.toContain('posts.destroy:own');

    // The members' picker offers the same conditions once an action is chosen.
    await owner.page.getByRole('link', { name: 'Members' }).click();
    await owner.page.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: 'viewer@acme.test' }).getByRole('button', { name: 'Edit permissions' }).click();
    const picker = owner.page.getByRole('group', { name: 'Permissions of viewer@acme.test' });
    await picker.getByLabel('Granted: resource').selectOption('posts');
    expect(await picker.getByLabel('Granted: condition').count()).toBe(0);
    await picker.getByLabel('Granted: action').selectOption('update');
    await picker.getByLabel('Granted: condition').selectOption('own');
    await picker.getByRole('button', { name: 'Add posts.update:own' }).click();
    await picker.getByRole('button', { name: 'Save permissions' }).click();
    const viewerId = await idOf(server, 'users', 'email', 'viewer@acme.test');
    await expect
      .poll(async () => (await server.sql<{ granted_permissions: string[] }>('SELECT granted_permissions FROM user_roles WHERE user_id = $1', [viewerId]))[0]!.granted_permissions)
      .toContain('posts.update:own');
    await owner.page.close();
  });

  it("grants another service's invoices.approve and invoices.* from the matrix", async () => {
    const owner = await signedIn('owner@acme.test', '/admin/roles');
    await owner.page.getByRole('tab', { name: 'Viewer' }).click();
    const matrix = owner.page.getByRole('table', { name: "Other services' permissions of Viewer", exact: true });
    const invoices = matrix.getByRole('row').filter({ has: owner.page.getByRole('rowheader', { name: 'invoices (billing)' }) });
    await invoices.getByRole('checkbox', { name: 'invoices.approve' }).check();
    await owner.page.getByRole('button', { name: 'Review changes' }).click();
    await owner.page.getByRole('dialog', { name: 'Changes to save' }).getByRole('button', { name: 'Confirm and save' }).click();
    await owner.page.getByRole('status').filter({ hasText: 'Saved the permissions of Viewer.' }).waitFor();
    expect(await rolePermissions('viewer')).toContain('invoices.approve');

    await invoices.getByRole('checkbox', { name: 'invoices.*' }).check();
    expect(await invoices.getByRole('checkbox', { name: 'invoices.index' }).isDisabled()).toBe(true);
    await owner.page.getByRole('button', { name: 'Review changes' }).click();
    await owner.page.getByRole('dialog', { name: 'Changes to save' }).getByRole('button', { name: 'Confirm and save' }).click();
    await owner.page.getByRole('status').filter({ hasText: 'Saved the permissions of Viewer.' }).waitFor();
    expect(await rolePermissions('viewer')).toContain('invoices.*');
    await owner.page.close();
  });

  it("lists another service's authorize refusals with the service, and explains them by the permission", async () => {
    const editorToken = await server.login('editor@acme.test');
    const asked = await server.api.post('/api/acme/authorize', { token: editorToken, body: { checks: [{ model: 'invoices', action: 'index' }] }, headers: { 'X-Gatehouse-Service': 'billing' } });
    expect(asked.body.results).toEqual([expect.objectContaining({ allowed: false })]);
    await expect.poll(async () => (await server.sql("SELECT 1 FROM decision_logs WHERE source = 'authorize' AND permission = 'invoices.index'")).length).toBe(1);

    const owner = await signedIn('owner@acme.test', '/admin/decisions');
    const row = owner.page.getByRole('table', { name: 'Decisions' }).getByRole('row').filter({ hasText: 'authorize (billing)' });
    await row.getByRole('button', { name: 'Explain' }).click();
    const tree = owner.page.getByRole('table', { name: 'Decisions' }).getByRole('row').filter({ hasText: 'lacks invoices.index' });
    await tree.waitFor();
    expect(await tree.textContent()).toContain('POST /api/acme/authorize');
    await owner.page.close();
  });
});
