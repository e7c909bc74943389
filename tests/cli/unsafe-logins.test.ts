import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkServiceLogin } from '../../server/db/connection/service-login-check.js';
import { serviceDatabase } from '../../server/cli/service-database.js';
import { readEnvironment } from '../../server/cli/environment.js';
import { roleUrl } from '../../server/db/logins/role-url.js';
import { gatehouseInProcess } from '../support/gatehouse-in-process.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { queryOnce } from '../support/query.js';
import { dropRoles, uniqueRoleName } from '../support/roles.js';

// A login that bypasses row-level security, may create roles, or cannot log in (so access follows
// whoever SET ROLEs into it) must never become the service's or an analyst's: `analyst grant`,
// `app-login` and `serve` each refuse it and change nothing. Each role below holds everything the
// command needs except being safe: it exists, has a password, and (for serve) is in gatehouse_app.
let database: TestDatabase;
const PASSWORD = 'a-password-long-enough';
const UNSAFE = { bypassrls: 'BYPASSRLS', createrole: 'CREATEROLE', nologin: 'NOLOGIN' } as const;
type Unsafe = keyof typeof UNSAFE;
const roles = Object.fromEntries(Object.keys(UNSAFE).map((kind) => [kind, uniqueRoleName(`unsafe_${kind}`)])) as Record<Unsafe, string>;
const REASONS: Record<Unsafe, string> = {
  bypassrls: 'it bypasses row-level security',
  createrole: 'it can create and grant roles',
  nologin: 'it cannot log in, and access follows the role that logs in',
};

beforeAll(async () => {
  database = await createTestDatabase();
  for (const [kind, role] of Object.entries(roles) as [Unsafe, string][]) {
    const login = kind === 'nologin' ? '' : 'LOGIN';
    await queryOnce(database.ownerUrl, `CREATE ROLE ${role} ${login} ${UNSAFE[kind]} PASSWORD '${PASSWORD}'`);
  }
});

afterAll(async () => {
  await database.drop();
  await dropRoles(...Object.values(roles));
});

/** What a refusal must leave as it was: the role's attributes and memberships, grants, audit. */
const stateOf = async (role: string) => ({
  role: await queryOnce(
    database.ownerUrl,
    `SELECT r.rolsuper, r.rolbypassrls, r.rolcreaterole, r.rolcanlogin, r.rolpassword IS NULL AS no_password,
       ARRAY(SELECT g.rolname::text FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid WHERE m.member = r.oid ORDER BY 1) AS memberships
     FROM pg_authid r WHERE r.rolname = $1`,
    [role],
  ),
  grants: await queryOnce(database.ownerUrl, 'SELECT role_name, organization_id FROM analyst_grants WHERE role_name = $1', [role]),
  audit: await queryOnce(database.ownerUrl, 'SELECT count(*)::int AS n FROM audit_logs'),
});

const gatehouse = (args: string[]) => gatehouseInProcess(database.ownerUrl, args);

describe.each(Object.keys(UNSAFE) as Unsafe[])('a %s login', (kind) => {
  const role = roles[kind];

  it('is refused by `gatehouse app-login`, with or without a password', async () => {
    const before = await stateOf(role);
    await expect(gatehouse(['app-login', role])).rejects.toThrow(`Refusing to use role "${role}": ${REASONS[kind]}.`);
    await expect(gatehouse(['app-login', role, '--password', 'another-long-password'])).rejects.toThrow(REASONS[kind]);
    expect(await stateOf(role)).toEqual(before);
  });

  it('is refused by `gatehouse analyst grant`', async () => {
    const before = await stateOf(role);
    await expect(gatehouse(['analyst', 'grant', role, 'acme'])).rejects.toThrow(`Refusing to use role "${role}": ${REASONS[kind]}.`);
    expect(await stateOf(role)).toEqual(before);
  });

  it('is refused by `gatehouse serve` as its service login, even inside gatehouse_app', async () => {
    await queryOnce(database.ownerUrl, `GRANT gatehouse_app TO ${role}`);
    try {
      const before = await stateOf(role);
      const env = readEnvironment({ DATABASE_URL: database.ownerUrl, GATEHOUSE_APP_DATABASE_URL: roleUrl(database.ownerUrl, role, PASSWORD) });
      const target = { ownerUrl: database.ownerUrl, embedded: false, stop: async () => {} };
      const refusal = kind === 'nologin' ? `role "${role}" is not permitted to log in` : `${role}: ${REASONS[kind]}`;
      // What `serve` does before it listens: pick the service connection, then check its login.
      const serving = async () => checkServiceLogin(await serviceDatabase(env, target, { provisionLogin: false, home: '/nonexistent' }), false, pino({ level: 'silent' }));
      await expect(serving()).rejects.toThrow(refusal);
      expect(await stateOf(role)).toEqual(before);
    } finally {
      await queryOnce(database.ownerUrl, `REVOKE gatehouse_app FROM ${role}`);
    }
  });
});
