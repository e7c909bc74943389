import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceLoginUrl } from '../../server/cli/service-login.js';
import { generateTokenKeyPair } from '../../server/auth/token-keys.js';
import { ConfigError } from '../../server/errors/config-error.js';
import { createServer } from '../../server/create-server.js';
import { revokeAnalystAccess } from '../../server/db/logins/analyst-access.js';
import { migrate } from '../../server/db/migrations/migrations.js';
import { roleUrl } from '../../server/db/logins/role-url.js';
import { createAnalyst, type TestAnalyst } from '../support/analyst.js';
import { databaseUrl } from '../../harness/cluster.js';
import { createEmptyDatabase, type TestDatabase } from '../support/database.js';
import { queryOnce } from '../support/query.js';
import { dropRoles, uniqueRoleName } from '../support/roles.js';

// Two Gatehouse databases of one cluster, each migrated and with its own service login and
// analyst, as two projects sharing a PostgreSQL server would have them.
let first: TestDatabase;
let second: TestDatabase;
let home: string;
let firstService: string;
let secondService: string;
let analyst: TestAnalyst;
const stranger = uniqueRoleName('stranger');
const PASSWORD = 'stranger password 1';

/** The SQLSTATE a login gets connecting to `url`, or 'connected'. */
async function connectAs(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return 'connected';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

const otherDatabase = (url: string, database: TestDatabase) => databaseUrl(url, database.name);

beforeAll(async () => {
  [first, second] = await Promise.all([createEmptyDatabase(), createEmptyDatabase()]);
  await Promise.all([migrate(first.ownerUrl), migrate(second.ownerUrl)]);
  home = await mkdtemp(join(tmpdir(), 'gatehouse-connect-'));
  firstService = await serviceLoginUrl(first.ownerUrl, home);
  secondService = await serviceLoginUrl(second.ownerUrl, home);
  await queryOnce(first.ownerUrl, "INSERT INTO organizations (name, slug) VALUES ('Acme', 'acme')");
  analyst = await createAnalyst(first.ownerUrl, ['acme']);
  await queryOnce(first.ownerUrl, `CREATE ROLE ${stranger} LOGIN PASSWORD '${PASSWORD}'`);
});

afterAll(async () => {
  await Promise.all([first.drop(), second.drop()]);
  await dropRoles(analyst.role, stranger);
  await rm(home, { recursive: true, force: true });
});

describe('CONNECT on a Gatehouse database', () => {
  it("goes to the database's own service login, not to another database's", async () => {
    expect(await connectAs(firstService)).toBe('connected');
    expect(await connectAs(secondService)).toBe('connected');
    expect(await connectAs(otherDatabase(firstService, second))).toBe('42501');
    expect(await connectAs(otherDatabase(secondService, first))).toBe('42501');
  });

  it("goes to the database's analysts, and leaves with their last organization", async () => {
    expect(await connectAs(analyst.url)).toBe('connected');
    expect(await connectAs(otherDatabase(analyst.url, second))).toBe('42501');
    await revokeAnalystAccess(first.ownerUrl, analyst.role, 'acme');
    expect(await connectAs(analyst.url)).toBe('42501');
  });

  it('is not PUBLIC: a login of the cluster with no grant here is refused', async () => {
    expect(await connectAs(roleUrl(first.ownerUrl, stranger, PASSWORD))).toBe('42501');
    expect(await connectAs(roleUrl(second.ownerUrl, stranger, PASSWORD))).toBe('42501');
  });
});

describe('createServer', () => {
  const serve = async (connectionString: string, allowOwnerConnection?: boolean) => {
    const server = await createServer({
      database: { connectionString, maxConnections: 1 },
      allowOwnerConnection,
      tokens: { secretKey: (await generateTokenKeyPair()).secretKey },
      routeGroups: [{ name: 'tenant', prefix: '{organization}', default: true }],
      logger: pino({ level: 'silent' }),
    });
    await server.close();
  };

  it('refuses to serve as the owner (a superuser here) unless allowed', async () => {
    await expect(serve(first.ownerUrl)).rejects.toThrow(ConfigError);
    await expect(serve(first.ownerUrl)).rejects.toThrow(/^Refusing to serve as postgres: it is a superuser, it bypasses row-level security/);
    await expect(serve(first.ownerUrl, true)).resolves.toBeUndefined();
  });

  it('refuses a BYPASSRLS login, and one outside gatehouse_app', async () => {
    const bypass = uniqueRoleName('bypass');
    await queryOnce(first.ownerUrl, `CREATE ROLE ${bypass} LOGIN BYPASSRLS PASSWORD '${PASSWORD}' IN ROLE gatehouse_app`);
    await queryOnce(first.ownerUrl, `GRANT CONNECT ON DATABASE ${first.name} TO ${bypass}`);
    try {
      await expect(serve(roleUrl(first.ownerUrl, bypass, PASSWORD))).rejects.toThrow(`Refusing to serve as ${bypass}: it bypasses row-level security.`);
      await queryOnce(first.ownerUrl, `GRANT CONNECT ON DATABASE ${first.name} TO ${stranger}`);
      await expect(serve(roleUrl(first.ownerUrl, stranger, PASSWORD))).rejects.toThrow(`The service login ${stranger} is not a member of gatehouse_app`);
    } finally {
      await queryOnce(first.ownerUrl, `REVOKE CONNECT ON DATABASE ${first.name} FROM ${bypass}, ${stranger}`);
      await dropRoles(bypass);
    }
  });

  it("serves as the database's service login", async () => {
    await expect(serve(firstService)).resolves.toBeUndefined();
  });
});
