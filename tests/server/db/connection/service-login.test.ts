import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTokenKeyPair } from '../../../../server/auth/token-keys.js';
import { provisionAppLogin } from '../../../../server/db/logins/app-login.js';
import { DEMO_PASSWORD } from '../../../../policies/seed.js';
import { roleUrl } from '../../../../server/db/logins/role-url.js';
import { inspectServiceConnection } from '../../../../server/db/connection/service-connection.js';
import { freePort } from '../../../../server/db/cluster/embedded-cluster.js';
import { serviceLoginName, servicePasswordFile } from '../../../../server/cli/service-login.js';
import { Api } from '../../support/http-client.js';
import { runCli, startCli, type RunningCommand } from '../../../../harness/cli.js';
import { createTestDatabase, type TestDatabase } from '../../../support/database.js';
import { queryOnce } from '../../../support/query.js';
import { dropRoles, uniqueRoleName } from '../../../support/roles.js';

// Least privilege by default: the service never connects as the owner unless told to.
const PASSWORD = 'a-service-password-123';
let testDb: TestDatabase;
let home: string;
let secretKey: string;
const service = uniqueRoleName('service');
const ownerish = uniqueRoleName('ownerish');
const twoHats = uniqueRoleName('twohats');
const outsider = uniqueRoleName('outsider');

beforeAll(async () => {
  testDb = await createTestDatabase();
  home = await mkdtemp(join(tmpdir(), 'gatehouse-home-'));
  secretKey = (await generateTokenKeyPair()).secretKey;
  await provisionAppLogin(testDb.ownerUrl, service, PASSWORD);
});

afterAll(async () => {
  await testDb.drop();
  await dropRoles(service, ownerish, twoHats, outsider);
  await rm(home, { recursive: true, force: true });
});

const env = (extra: NodeJS.ProcessEnv = {}) => ({ DATABASE_URL: testDb.ownerUrl, GATEHOUSE_HOME: home, GATEHOUSE_PASETO_SECRET_KEY: secretKey, PORT: '0', HOST: '127.0.0.1', ...extra });

/** Starts a serving command, signs in through it, and reports who its connections log in as (and all it printed). */
async function serveAndAsk(args: string[], extra: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string; logins: string[] }> {
  const running: RunningCommand = startCli(args, env(extra));
  let logins: string[];
  try {
    const stdout = await running.waitFor(/(listening on|demo on) http:\/\/\S+/);
    const api = new Api(/(?:listening on|demo on) (http:\/\/[^\s/]+)/.exec(stdout)![1]!);
    expect((await api.post('/api/auth/login', { body: { email: 'viewer@acme.test', password: DEMO_PASSWORD } })).status).toBe(200);
    const rows = await queryOnce<{ usename: string }>(testDb.ownerUrl, 'SELECT DISTINCT usename::text FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [testDb.name]);
    logins = rows.map((row) => row.usename);
  } finally {
    running.child.kill('SIGTERM');
    await running.exited;
  }
  return { ...running.output(), logins };
}

describe('gatehouse start', () => {
  const login = () => serviceLoginName(testDb.ownerUrl);
  const verifier = async () => (await queryOnce<{ rolpassword: string }>(testDb.ownerUrl, 'SELECT rolpassword FROM pg_authid WHERE rolname = $1', [login()]))[0]?.rolpassword;

  it('creates a service login once, keeps its password under GATEHOUSE_HOME and serves as it', async () => {
    const first = await serveAndAsk(['start']);
    const file = servicePasswordFile(testDb.ownerUrl, home);
    expect(first.stdout).toContain(`Created the service login ${login()} (member of gatehouse_app only); its password is kept in ${file}.`);
    expect(first.logins).toEqual([login()]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const facts = await inspectServiceConnection(roleUrl(testDb.ownerUrl, login(), (await readFile(file, 'utf8')).trim()));
    expect(facts).toMatchObject({ role: login(), excess: [], holdsAppRole: true });

    const created = await verifier();
    const second = await serveAndAsk(['start']);
    expect(second.stdout).not.toContain('service login');
    expect(second.logins).toEqual([login()]);
    expect(await verifier()).toBe(created);
    expect(second.stderr).not.toMatch(/Warning/);
  });
});

describe('gatehouse serve', () => {
  it('refuses the owner (here a superuser) and says what to do instead', async () => {
    const run = await runCli(['serve'], testDb.ownerUrl, env());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Refusing to serve as postgres: it is a superuser, it bypasses row-level security, it owns the database or its tables (the migrating role), it can create and grant roles.');
    expect(run.stderr).toContain('Set GATEHOUSE_APP_DATABASE_URL to a service login (`npx gatehouse app-login <role>` creates one), or GATEHOUSE_ALLOW_OWNER_CONNECTION=true');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('serves as the owner when explicitly allowed, warning at every start', async () => {
    for (let start = 0; start < 2; start += 1) {
      const served = await serveAndAsk(['serve'], { GATEHOUSE_ALLOW_OWNER_CONNECTION: 'true' });
      expect(served.stdout).toContain('Warning: serving as postgres: it is a superuser');
      expect(served.logins).toEqual(['postgres']);
    }
  });

  it('serves as the service login of GATEHOUSE_APP_DATABASE_URL, without a warning', async () => {
    const served = await serveAndAsk(['serve'], { GATEHOUSE_APP_DATABASE_URL: roleUrl(testDb.ownerUrl, service, PASSWORD) });
    expect(served.logins).toEqual([service]);
    expect(served.stderr).not.toMatch(/Warning/);
  });

  it('refuses a service URL whose login could leave gatehouse_app', async () => {
    await queryOnce(testDb.ownerUrl, `CREATE ROLE ${ownerish} LOGIN PASSWORD '${PASSWORD}' IN ROLE gatehouse_app`);
    await queryOnce(testDb.ownerUrl, `ALTER TABLE mail_outbox OWNER TO ${ownerish}`);
    await queryOnce(testDb.ownerUrl, `CREATE ROLE ${twoHats} LOGIN PASSWORD '${PASSWORD}' IN ROLE gatehouse_app, gatehouse_analyst`);
    await queryOnce(testDb.ownerUrl, `GRANT CONNECT ON DATABASE ${testDb.name} TO ${ownerish}, ${twoHats}`);
    try {
      expect(await inspectServiceConnection(roleUrl(testDb.ownerUrl, ownerish, PASSWORD))).toMatchObject({ excess: ['it owns the database or its tables (the migrating role)'] });
      expect(await inspectServiceConnection(roleUrl(testDb.ownerUrl, twoHats, PASSWORD))).toMatchObject({ excess: ['it can switch to gatehouse_analyst'] });
      // A host list whose first host is gone (a primary lost in a failover): checked on the next one.
      const deadFirst = roleUrl(testDb.ownerUrl, twoHats, PASSWORD).replace(/@([^/]+)\//, `@127.0.0.1:${await freePort()},$1/`);
      expect(await inspectServiceConnection(deadFirst)).toMatchObject({ excess: ['it can switch to gatehouse_analyst'] });
      const run = await runCli(['serve'], testDb.ownerUrl, env({ GATEHOUSE_APP_DATABASE_URL: roleUrl(testDb.ownerUrl, twoHats, PASSWORD) }));
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`Refusing to serve as ${twoHats}: it can switch to gatehouse_analyst.`);
    } finally {
      await queryOnce(testDb.ownerUrl, 'ALTER TABLE mail_outbox OWNER TO postgres');
    }
  });

  it('refuses a login without gatehouse_app', async () => {
    await queryOnce(testDb.ownerUrl, `CREATE ROLE ${outsider} LOGIN PASSWORD '${PASSWORD}'`);
    await queryOnce(testDb.ownerUrl, `GRANT CONNECT ON DATABASE ${testDb.name} TO ${outsider}`);
    const run = await runCli(['serve'], testDb.ownerUrl, env({ GATEHOUSE_APP_DATABASE_URL: roleUrl(testDb.ownerUrl, outsider, PASSWORD) }));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The service login ${outsider} is not a member of gatehouse_app`);
  });
});
