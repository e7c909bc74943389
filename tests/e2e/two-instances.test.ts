import { fileURLToPath } from 'node:url';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTokenKeyPair } from '../../server/auth/token-keys.js';
import { provisionAppLogin } from '../../server/db/logins/app-login.js';
import { DEMO_PASSWORD } from '../../policies/seed.js';
import { roleUrl } from '../../server/db/logins/role-url.js';
import { Api } from '../server/support/http-client.js';
import { startCli, type RunningCommand } from '../../harness/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { demoOrganizationIds, type DemoSlug } from '../support/demo.js';
import { startPgBouncer, type PgBouncer } from '../../harness/pgbouncer.js';
import { dropRoles, uniqueRoleName } from '../support/roles.js';

// Two `gatehouse serve` processes on one database, both through Debian's PgBouncer in
// transaction mode as a dedicated service login: one service, whichever instance answers.
const SERVICE_PASSWORD = 'service-password-for-the-pooler';
// Without a config `serve` serves the core alone; these instances serve the demo's models.
const DEMO_CONFIG = fileURLToPath(new URL('../../policies/gatehouse.config.ts', import.meta.url));
const role = uniqueRoleName('service');

let database: TestDatabase;
let bouncer: PgBouncer;
let home: string;
const instances: RunningCommand[] = [];
let apis: Api[];
let organizationIds: Record<DemoSlug, number>;

async function serve(env: NodeJS.ProcessEnv): Promise<{ process: RunningCommand; api: Api }> {
  const process = startCli(['serve', '--config', DEMO_CONFIG], env);
  instances.push(process);
  const output = await process.waitFor(/Gatehouse listening on (\S+)/);
  return { process, api: new Api(/Gatehouse listening on (\S+)/.exec(output)![1]!) };
}

beforeAll(async () => {
  database = await createTestDatabase();
  organizationIds = await demoOrganizationIds(database.ownerUrl);
  await provisionAppLogin(database.ownerUrl, role, SERVICE_PASSWORD);
  const owner = new URL(database.ownerUrl);
  bouncer = await startPgBouncer({ server: { host: owner.hostname, port: Number(owner.port) }, users: { [role]: SERVICE_PASSWORD } });
  home = await mkdtemp(join(tmpdir(), 'gatehouse-instances-'));
  const env = {
    DATABASE_URL: database.ownerUrl,
    GATEHOUSE_APP_DATABASE_URL: bouncer.via(roleUrl(database.ownerUrl, role, SERVICE_PASSWORD)),
    GATEHOUSE_DB_PREPARED_STATEMENTS: 'false',
    GATEHOUSE_PASETO_SECRET_KEY: (await generateTokenKeyPair()).secretKey,
    GATEHOUSE_HOME: home,
    GATEHOUSE_DB_POOL: '4',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  apis = (await Promise.all([serve(env), serve(env)])).map((instance) => instance.api);
});

afterAll(async () => {
  for (const instance of instances) {
    instance.child.kill('SIGTERM');
    await instance.exited;
  }
  await bouncer?.stop();
  await database?.drop();
  await dropRoles(role);
  if (home) await rm(home, { recursive: true, force: true });
});

async function login(api: Api, email: string, password = DEMO_PASSWORD) {
  return api.post('/api/auth/login', { body: { email, password } });
}

async function token(api: Api, email: string): Promise<string> {
  const response = await login(api, email);
  expect(response.status).toBe(200);
  return response.body.token;
}

describe('two instances behind PgBouncer', () => {
  it('serve as the service login, never as the owner, and start without a warning', async () => {
    await token(apis[0]!, 'viewer@acme.test');
    await token(apis[1]!, 'viewer@acme.test');
    const client = new pg.Client({ connectionString: database.ownerUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ usename: string }>('SELECT DISTINCT usename::text FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database.name]);
      expect(rows).toEqual([{ usename: role }]);
    } finally {
      await client.end();
    }
    for (const instance of instances) expect(instance.output().stderr).not.toMatch(/Warning/);
  });

  it('accept on one instance a token issued by the other', async () => {
    const issued = await token(apis[0]!, 'editor@acme.test');
    const answer = await apis[1]!.get('/api/acme/user-role', { token: issued });
    expect(answer.status).toBe(200);
    expect(answer.body.role).toBe('editor');
  });

  it('refuse a token on the very next request once the other instance logged it out', async () => {
    const issued = await token(apis[1]!, 'owner@acme.test');
    expect((await apis[0]!.get('/api/acme/roles', { token: issued })).status).toBe(200);
    expect((await apis[1]!.post('/api/auth/logout', { token: issued })).status).toBe(200);
    const next = await apis[0]!.get('/api/acme/roles', { token: issued });
    expect(next.status).toBe(401);
    expect(next.body).toEqual({ message: 'Unauthenticated.' });
  });

  it('give 0 answers from the wrong tenant over 1,000 interleaved requests of two tenants', async () => {
    const slugs: DemoSlug[] = ['acme', 'globex'];
    const tokens: Record<DemoSlug, string> = { acme: await token(apis[0]!, 'owner@acme.test'), globex: await token(apis[1]!, 'owner@globex.test') };

    let wrongTenant = 0;
    let failed = 0;
    const request = async (index: number) => {
      const slug = slugs[index % 2]!;
      const api = apis[Math.floor(index / 2) % 2]!;
      const write = index % 10 < 2;
      const answer = write
        ? await api.post(`/api/${slug}/posts`, { token: tokens[slug], body: { title: `${slug} post ${index}`, body: 'interleaved' } })
        : await api.get(`/api/${slug}/posts?per_page=100`, { token: tokens[slug] });
      if (answer.status !== (write ? 201 : 200)) failed += 1;
      const records: { organization_id: number; title: string }[] = write ? [answer.body] : (answer.body.data ?? []);
      if (records.some((record) => record.organization_id !== organizationIds[slug] || !record.title.startsWith(write ? slug : ''))) wrongTenant += 1;
    };
    let next = 0;
    const worker = async () => {
      while (next < 1000) await request(next++);
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect({ wrongTenant, failed }).toEqual({ wrongTenant: 0, failed: 0 });

    const stored = new pg.Client({ connectionString: database.ownerUrl });
    await stored.connect();
    try {
      const { rows } = await stored.query<{ slug: string; misplaced: number; total: number }>(
        `SELECT o.slug, count(*) FILTER (WHERE p.title NOT LIKE o.slug || ' post %')::int AS misplaced, count(*)::int AS total
         FROM posts p JOIN organizations o ON o.id = p.organization_id WHERE p.body = 'interleaved' GROUP BY o.slug ORDER BY o.slug`,
      );
      expect(rows).toEqual([
        { slug: 'acme', misplaced: 0, total: 100 },
        { slug: 'globex', misplaced: 0, total: 100 },
      ]);
    } finally {
      await stored.end();
    }
  });

  it('count login failures together: five spread over both, then 429 on either', async () => {
    // A user no other test here signs in as, so the limit it reaches locks nobody else's test out.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await login(apis[attempt % 2]!, 'viewer@acme.test', 'wrong password')).status).toBe(401);
    }
    for (const api of apis) {
      const refused = await login(api, 'viewer@acme.test');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('went through the pooler in transaction mode', async () => {
    const admin = new pg.Client({ connectionString: bouncer.via(roleUrl(database.ownerUrl, role, SERVICE_PASSWORD)).replace(/\/[^/?]*(\?|$)/, '/pgbouncer$1') });
    await admin.connect();
    try {
      const pools = (await admin.query<{ database: string; pool_mode: string }>('SHOW POOLS')).rows.filter((pool) => pool.database === database.name);
      expect(pools.map((pool) => pool.pool_mode)).toEqual(['transaction']);
      const transactions = async () => Number((await admin.query<{ database: string; total_xact_count: string }>('SHOW STATS')).rows.find((row) => row.database === database.name)?.total_xact_count);
      const before = await transactions();
      const issued = await token(apis[0]!, 'editor@acme.test');
      for (let index = 0; index < 50; index += 1) expect((await apis[index % 2]!.get('/api/acme/posts', { token: issued })).status).toBe(200);
      expect((await transactions()) - before).toBeGreaterThanOrEqual(50);
    } finally {
      await admin.end();
    }
  });
});
