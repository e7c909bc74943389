import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppDatabase } from '../support/app-database.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { queryOnce } from '../support/query.js';

// Rules every migration, later ones included, has to keep; each query lists the offenders. They
// hold for the demo application's tables and for an application's own, made tenant tables by
// gatehouse.enable_tenant_table and enable_child_table.
const CORE_ANALYST_TABLES = ['analyst_grants', 'audit_logs', 'decision_logs', 'invitations', 'org_role_permissions', 'organizations', 'roles', 'service_resources', 'user_roles', 'users'];

describe.each([
  { application: 'the demo', create: createTestDatabase, analystTables: [...CORE_ANALYST_TABLES, 'comments', 'posts'] },
  { application: 'an application of its own', create: () => createAppDatabase(), analystTables: [...CORE_ANALYST_TABLES, 'projects', 'tasks'] },
])('$application', ({ create, analystTables }) => {
  let testDb: TestDatabase;
  const offenders = async (text: string) => (await queryOnce<{ name: string }>(testDb.ownerUrl, text)).map((row) => row.name).sort();

  beforeAll(async () => {
    testDb = await create();
  });

  afterAll(async () => {
    await testDb.drop();
  });

  const TENANT_TABLES = `
    SELECT c.oid, c.relname::text AS name, c.relrowsecurity, c.relforcerowsecurity
    FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')`;

  // analyst_grants names organizations but is access-control data only the owner writes.
  const ACCESS_CONTROL_TABLES = "('analyst_grants')";

  describe('tenant tables (every table with an organization_id)', () => {
    it('have row-level security enabled and forced', async () => {
      expect(
        await offenders(`SELECT name FROM (${TENANT_TABLES}) t WHERE NOT (relrowsecurity AND relforcerowsecurity) AND name NOT IN ${ACCESS_CONTROL_TABLES}`),
      ).toEqual([]);
    });

    it('have policies for the service and for analysts', async () => {
      const missing = (role: string) =>
        offenders(`SELECT name FROM (${TENANT_TABLES}) t WHERE name NOT IN ${ACCESS_CONTROL_TABLES}
          AND NOT EXISTS (SELECT FROM pg_policy p WHERE p.polrelid = t.oid AND '${role}'::regrole = ANY (p.polroles))`);
      expect(await missing('gatehouse_app')).toEqual([]);
      expect(await missing('gatehouse_analyst')).toEqual([]);
    });

    it('carry organization_id NOT NULL, but for a membership outside any organization', async () => {
      expect(
        await offenders(`SELECT name FROM (${TENANT_TABLES}) t JOIN pg_attribute a ON a.attrelid = t.oid AND a.attname = 'organization_id'
          WHERE NOT a.attnotnull AND name <> 'user_roles'`),
      ).toEqual([]);
    });

    it('have only read-only policies for analysts', async () => {
      expect(
        await offenders(`SELECT polrelid::regclass::text AS name FROM pg_policy
          WHERE 'gatehouse_analyst'::regrole = ANY (polroles) AND polcmd <> 'r'`),
      ).toEqual([]);
    });

    it('have an index that starts with organization_id', async () => {
      expect(
        await offenders(`SELECT name FROM (${TENANT_TABLES}) t WHERE NOT EXISTS (
          SELECT FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
          WHERE i.indrelid = t.oid AND a.attname = 'organization_id')`),
      ).toEqual([]);
    });
  });

  describe('roles', () => {
    it('the service and analyst roles cannot bypass row-level security, log in, or own anything', async () => {
      expect(
        await offenders(`SELECT rolname::text AS name FROM pg_roles WHERE rolname IN ('gatehouse_app', 'gatehouse_analyst')
          AND (rolsuper OR rolbypassrls OR rolcreaterole OR rolcreatedb OR rolcanlogin
            OR EXISTS (SELECT FROM pg_class WHERE relowner = pg_roles.oid)
            OR EXISTS (SELECT FROM pg_proc WHERE proowner = pg_roles.oid))`),
      ).toEqual([]);
    });

    it('no one but the owner can create objects in the public schema', async () => {
      expect(
        await offenders(`SELECT r AS name FROM unnest(ARRAY['gatehouse_app', 'gatehouse_analyst']) r WHERE has_schema_privilege(r, 'public', 'CREATE')`),
      ).toEqual([]);
      expect(await offenders(`SELECT 'PUBLIC' AS name FROM pg_namespace, aclexplode(nspacl) acl WHERE nspname = 'public' AND acl.grantee = 0 AND acl.privilege_type = 'CREATE'`)).toEqual([]);
    });

    it('analysts can read exactly the tables meant for them', async () => {
      const readable = await offenders(`SELECT relname::text AS name FROM pg_class
        WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p', 'v', 'm')
          AND has_any_column_privilege('gatehouse_analyst', oid, 'SELECT')`);
      expect(readable).toEqual([...analystTables].sort());
      expect(
        await offenders(`SELECT relname::text AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')
          AND (has_table_privilege('gatehouse_analyst', oid, 'INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER'))`),
      ).toEqual([]);
    });
  });

  describe('functions', () => {
    it('none in the public or gatehouse schema is executable by PUBLIC', async () => {
      expect(
        await offenders(`SELECT proname::text AS name FROM pg_proc WHERE pronamespace IN ('public'::regnamespace, 'gatehouse'::regnamespace)
          AND (proacl IS NULL OR EXISTS (SELECT FROM aclexplode(proacl) acl WHERE acl.grantee = 0))`),
      ).toEqual([]);
    });

    it('every SECURITY DEFINER or trigger function pins its search_path', async () => {
      expect(
        await offenders(`SELECT proname::text AS name FROM pg_proc WHERE pronamespace IN ('public'::regnamespace, 'gatehouse'::regnamespace)
          AND (prosecdef OR prorettype = 'trigger'::regtype)
          AND NOT EXISTS (SELECT FROM unnest(proconfig) setting WHERE setting LIKE 'search_path=%')`),
      ).toEqual([]);
    });
  });
});
