import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { serviceLoginName } from '../../server/cli/service-login.js';
import { queryOnce } from '../support/query.js';
import { startTestServer, type TestServer } from './support/test-server.js';

// The HTTP suites serve as `gatehouse start` does: through the database's own service login, so
// row-level security holds for them without the startup-role option the owner would need.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

const roleExists = async (role: string) => (await queryOnce(inject('clusterUrl'), 'SELECT 1 FROM pg_roles WHERE rolname = $1', [role])).length === 1;

describe('the test server', () => {
  it('connects as its database’s service login, which holds gatehouse_app and nothing else', async () => {
    const login = serviceLoginName(server.database.ownerUrl);
    await server.login('owner@acme.test');
    const connections = await server.sql<{ usename: string }>('SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = current_database() AND usename <> current_user');
    expect(connections).toEqual([{ usename: login }]);
    const [facts] = await server.sql(
      `SELECT r.rolsuper, r.rolbypassrls, r.rolcreaterole,
         ARRAY(SELECT g.rolname::text FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid WHERE m.member = r.oid) AS memberships
       FROM pg_roles r WHERE r.rolname = $1`,
      [login],
    );
    expect(facts).toEqual({ rolsuper: false, rolbypassrls: false, rolcreaterole: false, memberships: ['gatehouse_app'] });
  });

  it('drops the login with its database', async () => {
    const own = await startTestServer();
    const login = serviceLoginName(own.database.ownerUrl);
    expect(await roleExists(login)).toBe(true);
    await own.close();
    expect(await roleExists(login)).toBe(false);
  });
});
