import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { envConfig } from '../../../server/cli/env-config.js';
import { readEnvironment } from '../../../server/cli/environment.js';
import { parseConfig } from '../../../server/config/config-schema.js';
import { ORGANIZATION_CREATION_DEFAULTS, resolveOrganizationCreation } from '../../../server/config/organization-creation-config.js';
import { ConfigError } from '../../../server/errors/config-error.js';
import { creationCounterKey } from '../../../server/organizations/creation-rules.js';
import { createAnalyst } from '../../support/analyst.js';
import { gatehouseRun } from '../../support/gatehouse-in-process.js';
import { dropRoles } from '../../support/roles.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Who may create organizations over HTTP (`organizationCreation.allowed`) and how many one user
// may create per hour and own at once, on the documented defaults unless a test says otherwise.

const create = (server: TestServer, token: string, slug: string) => server.api.post('/api/organizations', { token, body: { name: `Org ${slug}`, slug } });
const statuses = (responses: { status: number }[]) => responses.map((response) => response.status).sort();
const ADMIN = 'admin@example.test';

describe('organizationCreation.allowed: anyone (the default), with the per-user limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    // These race one user's creations against each other: the user's fair share of the pool (a
    // quarter by default, one of the test's four connections) is the whole pool here, so they
    // meet at the user's counter, not in the share's line.
    server = await startTestServer({ fairShare: { user: 4 } });
  });
  const analysts: string[] = [];
  afterAll(async () => {
    await server.close();
    await dropRoles(...analysts);
  });

  it('answers a flood of 120 creations by one user with 5 × 201, then 429 with Retry-After; another user is unaffected', async () => {
    const viewer = await server.login('viewer@acme.test');
    // All at once: concurrent creations of one user are counted one after the other.
    const flood = await Promise.all(Array.from({ length: 120 }, (_, n) => create(server, viewer, `flood-${n}`)));
    expect(statuses(flood)).toEqual([...Array(5).fill(201), ...Array(115).fill(429)]);
    for (const refused of flood.filter((response) => response.status === 429)) {
      expect(refused.body).toEqual({ message: `Too many organizations created. Please try again in ${refused.headers['retry-after']} seconds.` });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    }
    const [{ created }] = await server.sql(
      "SELECT count(*)::int AS created FROM organizations o JOIN user_roles m ON m.organization_id = o.id JOIN users u ON u.id = m.user_id WHERE u.email = 'viewer@acme.test' AND o.slug LIKE 'flood-%'",
    );
    expect(created).toBe(5);

    const editor = await server.login('editor@acme.test');
    expect((await create(server, editor, 'eddie-works')).status).toBe(201);
  });

  it('counts only creations that happen: a taken slug costs nothing', async () => {
    const gus = await server.login('owner@globex.test');
    for (let n = 0; n < 6; n += 1) expect((await create(server, gus, 'acme')).status).toBe(422);
    expect((await create(server, gus, 'gus-works')).status).toBe(201);
  });

  // Every tenant's organizations take their ids from one integer sequence: a refused creation
  // that drew one anyway let any user use all 2^31 of them up, and then nobody could create one.
  it('draws no organization id for a creation it refuses, or whose slug is taken', async () => {
    const lastDrawn = async () => (await server.sql('SELECT last_value::int AS id FROM organizations_id_seq'))[0].id;
    const contributor = await server.login('contributor@acme.test');
    for (let n = 0; n < 5; n += 1) expect((await create(server, contributor, `drawn-${n}`)).status).toBe(201);
    const drawn = await lastDrawn();
    expect((await create(server, contributor, 'drawn-5')).status).toBe(429);
    expect((await create(server, await server.login('editor@acme.test'), 'acme')).status).toBe(422);
    expect(await lastDrawn()).toBe(drawn);
  });

  it('draws one organization id when creations of one slug race, by one user or by several', async () => {
    const lastDrawn = async () => (await server.sql('SELECT last_value::int AS id FROM organizations_id_seq'))[0].id;
    const [gus, eddie] = [await server.login('owner@globex.test'), await server.login('editor@acme.test')];
    const users = await server.sql("SELECT id FROM users WHERE email IN ('owner@globex.test', 'editor@acme.test')");
    const drawn = await lastDrawn();
    // Creations in flight hold both users' counters: the three below all get as far as they can
    // before their limits are checked, then go on once the counters let go.
    const inFlight = new pg.Client({ connectionString: server.database.ownerUrl });
    await inFlight.connect();
    await inFlight.query('BEGIN');
    await inFlight.query(
      "INSERT INTO rate_limits (key, attempts, window_seconds, max_attempts, expires_at) SELECT unnest($1::text[]), '{}', 3600, 5, now() ON CONFLICT (key) DO UPDATE SET key = excluded.key",
      [users.map(({ id }) => creationCounterKey(id))],
    );
    const race = Promise.all([create(server, gus, 'raced'), create(server, eddie, 'raced'), create(server, gus, 'raced')]);
    await vi.waitFor(
      async () => expect((await server.sql("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"))[0].n).toBe(3),
      { timeout: 30_000, interval: 50 },
    );
    await inFlight.query('COMMIT');
    await inFlight.end();
    expect(statuses(await race)).toEqual([201, 422, 422]);
    expect(await lastDrawn()).toBe(drawn + 1);
  });

  // Creations take turns on a row that only the service may lock: an advisory key, which any
  // login may hold, let an analyst stall every creation of a slug.
  it('takes turns on a lock no analyst can take or hold up', async () => {
    const analyst = await createAnalyst(server.database.ownerUrl, ['acme']);
    analysts.push(analyst.role);
    const session = new pg.Client({ connectionString: analyst.url });
    await session.connect();
    try {
      await session.query('BEGIN');
      await session.query("SELECT pg_advisory_xact_lock(hashtext('organizations.slug'), hashtext('analyst-held'))");
      await session.query('SELECT count(*) FROM organizations');
      expect((await create(server, await server.login('editor@acme.test'), 'analyst-held')).status).toBe(201);
      await session.query('ROLLBACK');
      await expect(session.query('SELECT name FROM claim_turns FOR UPDATE')).rejects.toThrow(/permission denied/);
    } finally {
      await session.end();
    }
  });

  it('refuses a creation past 20 owned organizations with 403 naming the limit, also when three race for the last place', async () => {
    // Olivia owns acme; 18 more, written directly, leave her one place below the limit.
    await server.sql(`
      WITH made AS (INSERT INTO organizations (name, slug) SELECT 'Owned ' || n, 'owned-' || n FROM generate_series(1, 18) n RETURNING id)
      INSERT INTO user_roles (user_id, organization_id, role_id, route_group)
      SELECT u.id, made.id, r.id, 'tenant' FROM made, users u, roles r WHERE u.email = 'owner@acme.test' AND r.slug = 'owner'`);
    const owner = await server.login('owner@acme.test');
    const [{ id }] = await server.sql("SELECT id FROM users WHERE email = 'owner@acme.test'");
    // A creation in flight holds her counter: the three below all get as far as it, then are
    // checked one after the other once it lets go.
    const inFlight = new pg.Client({ connectionString: server.database.ownerUrl });
    await inFlight.connect();
    await inFlight.query('BEGIN');
    await inFlight.query("INSERT INTO rate_limits (key, attempts, window_seconds, max_attempts, expires_at) VALUES ($1, '{}', 3600, 5, now())", [creationCounterKey(id)]);
    const race = Promise.all(['last-a', 'last-b', 'last-c'].map((slug) => create(server, owner, slug)));
    await vi.waitFor(
      async () => expect((await server.sql("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"))[0].n).toBe(3),
      { timeout: 30_000, interval: 50 },
    );
    await inFlight.query('COMMIT');
    await inFlight.end();
    const answers = await race;
    expect(statuses(answers)).toEqual([201, 403, 403]);
    expect(answers.find((response) => response.status === 403)!.body).toEqual({
      message: 'You already own the most organizations one user may own: 20 (organizationCreation.maxOwned).',
      reason: { gate: 'administration' },
    });
  });

  it('documents the refusals in the OpenAPI document', async () => {
    const { body } = await server.api.get('/api/openapi.json');
    expect(Object.keys(body.paths['/api/organizations'].post.responses)).toEqual(expect.arrayContaining(['201', '401', '403', '422', '429']));
  });

  it('leaves a superadmin (`*` in users.permissions) unlimited', async () => {
    const admin = await server.login(ADMIN);
    const created = await Promise.all(Array.from({ length: ORGANIZATION_CREATION_DEFAULTS.perHour + 2 }, (_, n) => create(server, admin, `ops-${n}`)));
    expect(new Set(statuses(created))).toEqual(new Set([201]));
  });
});

describe('organizationCreation.allowed: permission', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ organizationCreation: { allowed: 'permission' } });
  });
  afterAll(() => server.close());

  it('refuses a user without organizations.store in their own permissions with 403 and the permission', async () => {
    // The owner holds `*` in acme: a role in an organization is not the user's own permission.
    const refused = await create(server, await server.login('owner@acme.test'), 'olivia-works');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: 'You do not have permission to create organizations.', reason: { gate: 'administration', permission: 'organizations.store' } });
  });

  it('admits holders of organizations.store (granted, not denied) and superadmins', async () => {
    await server.sql("UPDATE users SET permissions = '{organizations.store}' WHERE email = 'viewer@acme.test'");
    expect((await create(server, await server.login('viewer@acme.test'), 'vera-works')).status).toBe(201);
    await server.sql("UPDATE users SET granted_permissions = '{organizations.*}', denied_permissions = '{organizations.store}' WHERE email = 'editor@acme.test'");
    expect((await create(server, await server.login('editor@acme.test'), 'eddie-works')).status).toBe(403);
    expect((await create(server, await server.login(ADMIN), 'ada-works')).status).toBe(201);
  });
});

describe('organizationCreation.allowed: nobody', () => {
  let server: TestServer;
  let folder: string;
  beforeAll(async () => {
    server = await startTestServer({ organizationCreation: { allowed: 'nobody' } });
    folder = await mkdtemp(join(tmpdir(), 'gatehouse-org-creation-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('refuses every user over HTTP with 403, superadmins too', async () => {
    for (const email of ['viewer@acme.test', ADMIN]) {
      const refused = await create(server, await server.login(email), 'nobody-works');
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ message: 'Organizations are created by the service’s operators only.', reason: { gate: 'administration' } });
    }
  });

  it('leaves `gatehouse org create` to operators, under the same setting', async () => {
    const config = join(folder, 'gatehouse.config.mjs');
    await writeFile(config, "export default { organizationCreation: { allowed: 'nobody' } };\n");
    const run = await gatehouseRun(server.database.ownerUrl, ['org', 'create', '--name', 'Operated', '--slug', 'operated', '--owner', 'viewer@acme.test', '--config', config]);
    expect(run).toMatchObject({ code: 0, stderr: '', stdout: expect.stringMatching(/^Created organization operated /) });
    const role = await server.api.get('/api/operated/user-role', { token: await server.login('viewer@acme.test') });
    expect(role.body).toMatchObject({ role: 'owner', permissions: ['*'] });
  });
});

describe('the setting from the config and the environment', () => {
  const read = (env: Record<string, string>, organizationCreation?: object) =>
    envConfig(readEnvironment(env), 'postgres://unused', 'k4.secret.unused', organizationCreation ? { organizationCreation } : {}).organizationCreation;

  it('reads GATEHOUSE_ORGANIZATION_CREATION*, the config file winning key by key', () => {
    const env = {
      GATEHOUSE_ORGANIZATION_CREATION: 'permission',
      GATEHOUSE_ORGANIZATION_CREATION_PERMISSION: 'tenants.create',
      GATEHOUSE_ORGANIZATION_CREATION_PER_HOUR: '2',
      GATEHOUSE_ORGANIZATION_CREATION_MAX_OWNED: '3',
    };
    expect(read(env)).toEqual({ allowed: 'permission', permission: 'tenants.create', perHour: 2, maxOwned: 3 });
    expect(read(env, { perHour: 10 })).toEqual({ allowed: 'permission', permission: 'tenants.create', perHour: 10, maxOwned: 3 });
    expect(read({})).toEqual({});
  });

  it('refuses, in a config, a misspelt key, a value that is none of the three, a permission that is none, a limit that is not positive', () => {
    expect(parseConfig({ organizationCreation: { perhour: 3 } })).toEqual({ problem: expect.stringContaining('perhour') });
    expect(() => resolveOrganizationCreation({ allowed: 'everyone' as never })).toThrow(/organizationCreation\.allowed/);
    expect(() => resolveOrganizationCreation({ permission: 'organizations.*:own' })).toThrow(
      'The organizationCreation.permission field holds an invalid permission: "organizations.*:own" (a condition is only allowed on {slug}.{action}, not on a wildcard).',
    );
    expect(() => resolveOrganizationCreation({ maxOwned: 0 })).toThrow(/organizationCreation\.maxOwned/);
  });

  // rate_limits keeps the hourly limit in an integer column: a larger one made every creation a 500.
  it('refuses an hourly limit past what the counter stores', () => {
    expect(resolveOrganizationCreation({ perHour: 2 ** 31 - 1 }).perHour).toBe(2 ** 31 - 1);
    expect(() => resolveOrganizationCreation({ perHour: 2 ** 31 })).toThrow('organizationCreation.perHour must be a whole number from 1 to 2147483647.');
  });

  it('refuses a conditioned permission, which nobody could hold: creating an organization has no record to test it on', () => {
    expect(() => resolveOrganizationCreation({ allowed: 'permission', permission: 'organizations.store:own' })).toThrow(
      new ConfigError(
        'The organizationCreation.permission field holds an invalid permission: "organizations.store:own" (it names the record condition own, but an organization being created has no record to test it on, so no one could ever hold it; name organizations.store).',
      ),
    );
  });

  it('refuses a variable that is none of the three, and limits that are not positive', () => {
    expect(() => readEnvironment({ GATEHOUSE_ORGANIZATION_CREATION: 'everyone' })).toThrow(/GATEHOUSE_ORGANIZATION_CREATION/);
    expect(() => readEnvironment({ GATEHOUSE_ORGANIZATION_CREATION_PER_HOUR: '0' })).toThrow(/GATEHOUSE_ORGANIZATION_CREATION_PER_HOUR/);
    expect(() => readEnvironment({ GATEHOUSE_ORGANIZATION_CREATION_MAX_OWNED: 'many' })).toThrow(ConfigError);
  });
});
