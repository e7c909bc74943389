import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rateLimitKey } from '../../../server/db/repositories/rate-limits.js';
import { lastMail, mailCount } from '../support/mail.js';
import { createAccounts, createTenant } from '../support/tenant-fixture.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
let owner: string;
let roleIds: Record<string, number>;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.login('owner@acme.test');
  const roles = await server.sql<{ id: number; slug: string }>('SELECT id, slug FROM roles');
  roleIds = Object.fromEntries(roles.map((role) => [role.slug, role.id]));
});

afterAll(() => server.close());

const invite = (email: string, role = 'viewer', extra: Record<string, unknown> = {}, token = owner, organization = 'acme') =>
  server.api.post(`/api/${organization}/invitations`, { token, body: { email, role_id: roleIds[role], ...extra } });

/** Invites and returns the invitation with the token from its mail. */
async function invited(email: string, role = 'viewer', extra: Record<string, unknown> = {}) {
  const response = await invite(email, role, extra);
  expect(response.status).toBe(201);
  return { invitation: response.body, token: (await lastMail(server, email)).token };
}

const accept = (token: string, bearer?: string) => server.api.post('/api/invitations/accept', { token: bearer, body: { token } });

const register = (token: string, email: string, path = '/api/auth/register', host?: string) =>
  server.api.post(path, { host, body: { token, name: 'New Person', email, password: 'a long password', password_confirmation: 'a long password' } });

describe('inviting', () => {
  it('creates a pending invitation, mails its token and lists it', async () => {
    const response = await invite('newcomer@acme.test');
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ email: 'newcomer@acme.test', role_id: roleIds.viewer, route_group: 'tenant', status: 'pending', accepted_at: null });
    expect(response.body).not.toHaveProperty('token');
    expect(response.body).not.toHaveProperty('token_hash');
    const mail = await lastMail(server, 'newcomer@acme.test');
    expect(mail.subject).toBe('You are invited to join Acme Corporation');

    const listed = await server.api.get('/api/acme/invitations', { token: owner });
    expect(listed.body.data.map((entry: { email: string }) => entry.email)).toContain('newcomer@acme.test');
    const pending = await server.api.get('/api/acme/invitations?status=pending', { token: owner });
    expect(pending.body.data.every((entry: { status: string }) => entry.status === 'pending')).toBe(true);
    const accepted = await server.api.get('/api/acme/invitations?status=accepted', { token: owner });
    expect(accepted.body.data.map((entry: { email: string }) => entry.email)).not.toContain('newcomer@acme.test');
  });

  it('validates the status filter', async () => {
    const response = await server.api.get('/api/acme/invitations?status=bogus', { token: owner });
    expect(response.status).toBe(422);
    expect(response.body.errors.status).toHaveLength(1);
  });

  it('allows one pending invitation per email and organization', async () => {
    await invited('twice@acme.test');
    const again = await invite('TWICE@acme.test');
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ email: ['An invitation is already pending for this email address.'] });
    const elsewhere = await invite('twice@acme.test', 'viewer', {}, await server.login('owner@globex.test'), 'globex');
    expect(elsewhere.status).toBe(201);
  });

  it('replaces an expired pending invitation', async () => {
    const { invitation } = await invited('late@acme.test');
    await server.sql("UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1", [invitation.id]);
    const expired = await server.api.get('/api/acme/invitations?status=expired', { token: owner });
    expect(expired.body.data).toContainEqual(expect.objectContaining({ id: invitation.id, status: 'expired' }));
    expect(expired.body.data.every((entry: { status: string }) => entry.status === 'expired')).toBe(true);
    expect((await invite('late@acme.test')).status).toBe(201);
  });

  it('rejects members, unknown roles, non-tenant groups and missing fields with 422', async () => {
    expect((await invite('editor@acme.test')).body.errors).toEqual({ email: ['This user is already a member of the organization.'] });
    expect((await invite('someone@acme.test', 'viewer', { role_id: 999_999 })).body.errors).toEqual({ role_id: ['The selected role is invalid.'] });
    expect((await invite('someone@acme.test', 'viewer', { route_group: 'admin' })).body.errors).toEqual({
      route_group: ['The selected route group is invalid.'],
    });
    const missing = await server.api.post('/api/acme/invitations', { token: owner, body: {} });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors)).toEqual(['email', 'role_id']);
  });

  it('needs invitations.index and invitations.store', async () => {
    const viewer = await server.login('viewer@acme.test');
    const list = await server.api.get('/api/acme/invitations', { token: viewer });
    expect(list.status).toBe(403);
    expect(list.body).toEqual({ message: 'This action is unauthorized.', reason: { gate: 'administration', permission: 'invitations.index' } });
    expect((await invite('x@acme.test', 'viewer', {}, viewer)).status).toBe(403);
  });

  it('lets an inviter grant only permissions they hold', async () => {
    const [tenantOwner, editor] = await createAccounts(server, 'owner', 'editor');
    const tenant = await createTenant(server, [
      { account: tenantOwner, role: 'owner' },
      { account: editor, role: 'editor', granted: ['invitations.*'] },
    ]);
    const asOwner = await invite(`boss@${tenant.slug}.test`, 'owner', {}, editor.token, tenant.slug);
    expect(asOwner.status).toBe(403);
    expect(asOwner.body).toEqual({ message: 'You cannot invite with a role that has permissions you do not hold.', reason: { gate: 'administration' } });
    expect(await server.sql('SELECT email FROM invitations WHERE organization_id = $1', [tenant.id])).toEqual([]);
    expect((await invite(`reader@${tenant.slug}.test`, 'viewer', {}, editor.token, tenant.slug)).status).toBe(201);
  });
});

describe('resending and cancelling', () => {
  it('resends with a new token; the old one stops working', async () => {
    const { invitation, token: oldToken } = await invited('resend@acme.test');
    const response = await server.api.post(`/api/acme/invitations/${invitation.id}/resend`, { token: owner });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: invitation.id, status: 'pending' });
    expect(await mailCount(server, 'resend@acme.test')).toBe(2);
    const { token: newToken } = await lastMail(server, 'resend@acme.test');
    expect(newToken).not.toBe(oldToken);
    expect((await accept(oldToken)).status).toBe(404);
    expect((await accept(newToken)).body.requires_registration).toBe(true);
  });

  it('refuses to revive an expired invitation: a new one replaces it', async () => {
    const { invitation } = await invited('renew@acme.test');
    await server.sql("UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1", [invitation.id]);
    const response = await server.api.post(`/api/acme/invitations/${invitation.id}/resend`, { token: owner });
    expect(response).toMatchObject({ status: 422, body: { errors: { status: ['This invitation has expired: create a new one.'] } } });
    expect((await invite('renew@acme.test')).status).toBe(201);
  });

  it('cancels; the token stops working and the invitation cannot change again', async () => {
    const { invitation, token } = await invited('cancel@acme.test');
    const response = await server.api.delete(`/api/acme/invitations/${invitation.id}`, { token: owner });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ message: 'Invitation cancelled.', invitation: { id: invitation.id, status: 'cancelled' } });
    expect((await accept(token)).status).toBe(404);
    const again = await server.api.delete(`/api/acme/invitations/${invitation.id}`, { token: owner });
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ status: ['Only pending invitations can be cancelled.'] });
    expect((await server.api.post(`/api/acme/invitations/${invitation.id}/resend`, { token: owner })).status).toBe(422);
  });

  it('answers 404 for another organization’s invitation, an unknown id or a malformed one', async () => {
    const { invitation } = await invited('cross@acme.test');
    const globexOwner = await server.login('owner@globex.test');
    const cross = await server.api.delete(`/api/globex/invitations/${invitation.id}`, { token: globexOwner });
    expect(cross.status).toBe(404);
    expect(cross.body).toEqual({ message: 'Invitation not found.' });
    expect((await server.api.post(`/api/globex/invitations/${invitation.id}/resend`, { token: globexOwner })).status).toBe(404);
    expect((await server.api.get('/api/acme/invitations', { token: globexOwner })).status).toBe(404);
    expect((await server.api.delete('/api/acme/invitations/999999', { token: owner })).status).toBe(404);
    expect((await server.api.delete('/api/acme/invitations/abc', { token: owner })).status).toBe(404);
  });

  // Issue 28, finding 8's rule: a member without the permission cannot tell which invitations exist.
  it('checks the permission before the record: a 403 whether or not the invitation exists', async () => {
    const { invitation } = await invited('order@acme.test');
    const globexInvitation = await invite('order@globex.test', 'viewer', {}, await server.login('owner@globex.test'), 'globex');
    expect(globexInvitation.status).toBe(201);
    const viewer = await server.login('viewer@acme.test');
    for (const id of [invitation.id, globexInvitation.body.id, 999999, 'abc']) {
      const cancel = await server.api.delete(`/api/acme/invitations/${id}`, { token: viewer });
      const resend = await server.api.post(`/api/acme/invitations/${id}/resend`, { token: viewer });
      for (const refused of [cancel, resend]) expect(refused, String(id)).toMatchObject({ status: 403, body: { message: 'This action is unauthorized.' } });
    }
    expect(await server.sql('SELECT status FROM invitations WHERE id = $1', [invitation.id])).toEqual([{ status: 'pending' }]);
    expect(await mailCount(server, 'order@acme.test')).toBe(1);
  });
});

describe('POST /api/invitations/accept', () => {
  it('lets the signed-in invitee join in the invitation’s route group, without issuing a token', async () => {
    const [invitee] = await createAccounts(server, 'invitee');
    const { token } = await invited(invitee.email);
    const guest = await accept(token);
    expect(guest.body).toMatchObject({ requires_registration: false, email: invitee.email, organization: { slug: 'acme' } });

    expect((await server.api.get('/api/acme/roles', { token: invitee.token })).status).toBe(404);
    const response = await accept(token, invitee.token);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ message: 'Invitation accepted.', invitation: { status: 'accepted' }, organization: { slug: 'acme' } });
    expect(response.body).not.toHaveProperty('token');
    expect((await server.api.get('/api/acme/user-role', { token: invitee.token })).body.role).toBe('viewer');

    const again = await accept(token, invitee.token);
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ token: ['This invitation has already been accepted.'] });
  });

  it('refuses an invitee signed in as someone else', async () => {
    const { token } = await invited('intended@acme.test');
    const response = await accept(token, await server.login('viewer@acme.test'));
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: 'This invitation was sent to another email address.', reason: { gate: 'administration' } });
  });

  it('tells a guest without an account to register', async () => {
    const { token } = await invited('guest@acme.test');
    const response = await accept(token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ requires_registration: true, email: 'guest@acme.test', organization: { id: expect.any(Number), name: 'Acme Corporation', slug: 'acme' } });
  });

  it('answers 404 for an unknown token and 422 for an expired invitation', async () => {
    expect((await accept('no-such-token')).status).toBe(404);
    const { invitation, token } = await invited('expired@acme.test');
    await server.sql("UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1", [invitation.id]);
    const response = await accept(token);
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual({ token: ['This invitation has expired.'] });
  });

  it('adds the membership to the group the invitation names', async () => {
    const [invitee] = await createAccounts(server, 'portal-invitee');
    const portalLogin = () => server.api.post('/api/auth/login', { host: 'acme.example.test', body: { email: invitee.email, password: DEMO_PASSWORD } });
    expect((await portalLogin()).status).toBe(404);
    const { token } = await invited(invitee.email, 'viewer', { route_group: 'portal' });
    expect((await accept(token, invitee.token)).status).toBe(200);
    expect((await portalLogin()).status).toBe(200);
  });
});

describe('POST {authBase}/auth/register', () => {
  it('creates the user and the membership and starts a session', async () => {
    const { token } = await invited('fresh@acme.test');
    const response = await register(token, 'Fresh@acme.test');
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      user: { name: 'New Person', email: 'Fresh@acme.test' },
      organization: { slug: 'acme' },
      organization_slug: 'acme',
      route_group: null,
    });
    const role = await server.api.get('/api/acme/user-role', { token: response.body.token });
    expect(role.body.role).toBe('viewer');
    expect((await server.api.post('/api/auth/login', { body: { email: 'fresh@acme.test', password: 'a long password' } })).status).toBe(200);
    expect((await register(token, 'fresh@acme.test')).status).toBe(422);
  });

  it('echoes the group named in the register URL, whose session it starts', async () => {
    const { token } = await invited('grouped@acme.test');
    const response = await register(token, 'grouped@acme.test', '/api/tenant/auth/register');
    expect(response).toMatchObject({ status: 201, body: { organization: { slug: 'acme' }, organization_slug: 'acme', route_group: 'tenant' } });
    expect((await server.api.get('/api/tenant/acme/user-role', { token: response.body.token })).body.role).toBe('viewer');
  });

  it('never takes a role from the body: registering and accepting give the invitation’s role', async () => {
    const claimed = { role: 'owner', role_id: roleIds.owner, organization_id: 1, permissions: ['*'] };
    const { token } = await invited('claims-owner@acme.test');
    const registered = await server.api.post('/api/auth/register', {
      body: { token, name: 'Claimer', email: 'claims-owner@acme.test', password: 'a long password', password_confirmation: 'a long password', ...claimed },
    });
    expect(registered.status).toBe(201);
    expect((await server.api.get('/api/acme/user-role', { token: registered.body.token })).body).toMatchObject({ role: 'viewer', permissions: ['comments.index', 'posts.index', 'posts.show'] });

    const [account] = await createAccounts(server, 'claims-on-accept');
    const second = await invited(account.email);
    expect((await server.api.post('/api/invitations/accept', { token: account.token, body: { token: second.token, ...claimed } })).status).toBe(200);
    expect((await server.api.get('/api/acme/user-role', { token: account.token })).body.role).toBe('viewer');
  });

  it('answers 404 for an unknown token or an invitation of another group', async () => {
    expect((await register('no-such-token', 'x@acme.test')).status).toBe(404);
    const { token } = await invited('elsewhere@acme.test');
    expect((await register(token, 'elsewhere@acme.test', '/api/admin/auth/register')).status).toBe(404);
  });

  it('redeems on a tenant host only that organization’s invitations, as login lands only there', async () => {
    const { token } = await invited('hosted@acme.test', 'viewer', { route_group: 'portal' });
    const elsewhere = await register(token, 'hosted@acme.test', '/api/auth/register', 'globex.example.test');
    expect(elsewhere).toMatchObject({ status: 404, body: { message: 'Invitation not found.' } });
    const home = await register(token, 'hosted@acme.test', '/api/auth/register', 'acme.example.test');
    expect(home).toMatchObject({ status: 201, body: { organization: { slug: 'acme' }, route_group: null } });
  });

  it('answers 422 for another email, a registered email or an expired invitation', async () => {
    const { invitation, token } = await invited('mismatch@acme.test');
    expect((await register(token, 'other@acme.test')).body.errors).toEqual({ email: ['The email does not match the invitation.'] });
    const { token: taken } = await invited('admin@example.test', 'editor');
    expect((await register(taken, 'admin@example.test')).body.errors).toEqual({ email: ['The email has already been taken.'] });
    await server.sql("UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1", [invitation.id]);
    expect((await register(token, 'mismatch@acme.test')).body.errors).toEqual({ token: ['This invitation has expired.'] });
  });

  // The operator's `gatehouse user remove` of the inviter clears the invitation's invited_by
  // (ON DELETE SET NULL) while it holds the inviter's row. A registration holds its invitation
  // while it waits its turn to claim the email: that turn must not wait on users, or the two
  // close a cycle and one of them fails.
  it('registers while the inviter is being removed, and the removal goes through', async () => {
    const { token } = await invited('orphaned@acme.test');
    const [inviter] = await server.sql<{ id: number }>("INSERT INTO users (name, email, password_hash) VALUES ('Leaving', 'leaving@acme.test', 'x') RETURNING id");
    await server.sql("UPDATE invitations SET invited_by = $1 WHERE email = 'orphaned@acme.test'", [inviter!.id]);
    const waiting = (n: number) =>
      vi.waitFor(
        async () => expect((await server.sql("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"))[0].n).toBe(n),
        { timeout: 30_000, interval: 50 },
      );
    const [turn, removal] = [new pg.Client({ connectionString: server.database.ownerUrl }), new pg.Client({ connectionString: server.database.ownerUrl })];
    await Promise.all([turn.connect(), removal.connect()]);
    try {
      // Another registration's turn in flight: this one locks its invitation, then waits for it.
      await turn.query('BEGIN');
      await turn.query("UPDATE claim_turns SET name = name WHERE name = 'users.email'");
      const registration = register(token, 'orphaned@acme.test');
      await waiting(1);
      await removal.query('BEGIN');
      const removed = removal.query('DELETE FROM users WHERE id = $1', [inviter!.id]).then(() => 'removed', (error: Error) => error.message);
      await waiting(2);
      await turn.query('COMMIT');
      const answer = await registration;
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(await removed).toBe('removed');
      await removal.query('COMMIT');
    } finally {
      await Promise.all([turn.end(), removal.end()]);
    }
  });

  it('validates the fields', async () => {
    const response = await server.api.post('/api/auth/register', { body: { token: 't', name: '', email: 'x', password: 'short', password_confirmation: 'other' } });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors).sort()).toEqual(['email', 'name', 'password']);
  });
});

// Every organization's invitations take their ids from one integer sequence: invitations that
// drew an id and were then refused would let one inviter use the ids up for everyone.
describe('inviting one email at once', () => {
  let racing: TestServer;
  beforeAll(async () => {
    // The user's fair share of the pool is the whole pool here, so the invitations below meet at
    // the email's throttle counter, not in the share's line.
    racing = await startTestServer({ fairShare: { user: 4 } });
  });
  afterAll(() => racing.close());

  it('draws one invitation id for invitations of one email that race', async () => {
    const lastDrawn = async () => (await racing.sql('SELECT (last_value - (NOT is_called)::int)::int AS id FROM invitations_id_seq'))[0].id;
    const [{ acme, viewer }] = await racing.sql("SELECT (SELECT id FROM organizations WHERE slug = 'acme') AS acme, (SELECT id FROM roles WHERE slug = 'viewer') AS viewer");
    const token = await racing.login('owner@acme.test');
    const drawn = await lastDrawn();
    // A send in flight holds the email's throttle counter: the three below get as far as it, then
    // go on one after the other once it lets go.
    const inFlight = new pg.Client({ connectionString: racing.database.ownerUrl });
    await inFlight.connect();
    await inFlight.query('BEGIN');
    await inFlight.query("INSERT INTO rate_limits (key, attempts, window_seconds, max_attempts, expires_at) VALUES ($1, '{}', 3600, 5, now())", [
      rateLimitKey('invitationSend', 'email', `${acme}/raced@acme.test`),
    ]);
    const race = Promise.all(Array.from({ length: 3 }, () => racing.api.post('/api/acme/invitations', { token, body: { email: 'raced@acme.test', role_id: viewer } })));
    await vi.waitFor(
      async () => expect((await racing.sql("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"))[0].n).toBe(3),
      { timeout: 30_000, interval: 50 },
    );
    await inFlight.query('COMMIT');
    await inFlight.end();
    expect((await race).map((response) => response.status).sort()).toEqual([201, 422, 422]);
    expect(await lastDrawn()).toBe(drawn + 1);
  });

  it('draws one user id for registrations of one email that race, from invitations of two organizations', async () => {
    const lastDrawn = async () => (await racing.sql('SELECT (last_value - (NOT is_called)::int)::int AS id FROM users_id_seq'))[0].id;
    const [{ viewer }] = await racing.sql("SELECT id AS viewer FROM roles WHERE slug = 'viewer'");
    const tokens: string[] = [];
    for (const [owner, organization] of [['owner@acme.test', 'acme'], ['owner@globex.test', 'globex']] as const) {
      const sent = await racing.api.post(`/api/${organization}/invitations`, { token: await racing.login(owner), body: { email: 'twin@acme.test', role_id: viewer } });
      expect(sent.status).toBe(201);
      expect(await mailCount(racing, 'twin@acme.test')).toBe(tokens.length + 1);
      tokens.push((await lastMail(racing, 'twin@acme.test')).token);
    }
    // An account of the email being written holds it: both registrations find the email free,
    // then wait for the write, which is rolled back.
    const inFlight = new pg.Client({ connectionString: racing.database.ownerUrl });
    await inFlight.connect();
    await inFlight.query('BEGIN');
    await inFlight.query("INSERT INTO users (name, email, password_hash) VALUES ('In Flight', 'twin@acme.test', 'x')");
    const drawn = await lastDrawn();
    const body = (token: string) => ({ token, name: 'Twin', email: 'twin@acme.test', password: 'a long password', password_confirmation: 'a long password' });
    const race = Promise.all(tokens.map((token) => racing.api.post('/api/auth/register', { body: body(token) })));
    await vi.waitFor(
      async () => expect((await racing.sql("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"))[0].n).toBe(2),
      { timeout: 30_000, interval: 50 },
    );
    await inFlight.query('ROLLBACK');
    await inFlight.end();
    const answers = await race;
    expect(answers.map((response) => response.status).sort()).toEqual([201, 422]);
    expect(answers.find((response) => response.status === 422)!.body.errors).toEqual({ email: ['The email has already been taken.'] });
    expect(await lastDrawn()).toBe(drawn + 1);
  });
});
