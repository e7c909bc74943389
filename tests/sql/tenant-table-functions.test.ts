import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConnectionString } from '../../server/db/connection/database.js';
import { tenantOpeningSql } from '../../server/db/transactions/tenant-transaction.js';
import { createAnalyst } from '../support/analyst.js';
import { createAppDatabase } from '../support/app-database.js';
import type { TestDatabase } from '../support/database.js';
import { queryOnce } from '../support/query.js';
import { dropRoles } from '../support/roles.js';

// An application's tables after gatehouse.enable_tenant_table / enable_child_table, attacked as
// the service (gatehouse_app in a tenant transaction) and as an analyst.
let testDb: TestDatabase;
let acme: number;
let globex: number;
let acmeProject: number;
let globexProject: number;
let analystRole = '';

const owner = <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => queryOnce<R>(testDb.ownerUrl, text, values);

/** One statement as the service inside an organization's context; rolled back afterwards. */
async function asTenant(organizationId: number, text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: appConnectionString(testDb.ownerUrl) });
  await client.connect();
  try {
    await client.query(tenantOpeningSql({ organizationId, userId: null }));
    return (await client.query(text, values)).rows;
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    await client.end();
  }
}

beforeAll(async () => {
  testDb = await createAppDatabase();
  const orgs = await owner<{ id: number; slug: string }>("INSERT INTO organizations (name, slug) VALUES ('Acme', 'acme'), ('Globex', 'globex') RETURNING id, slug");
  [acme, globex] = [orgs[0]!.id, orgs[1]!.id];
  const projects = await owner<{ id: number }>("INSERT INTO projects (organization_id, name) VALUES ($1, 'acme plan'), ($2, 'globex plan') RETURNING id", [acme, globex]);
  [acmeProject, globexProject] = [projects[0]!.id, projects[1]!.id];
  await owner("INSERT INTO tasks (project_id, title) VALUES ($1, 'acme task'), ($2, 'globex task')", [acmeProject, globexProject]);
});

afterAll(async () => {
  await testDb.drop();
  if (analystRole) await dropRoles(analystRole);
});

describe('gatehouse.enable_tenant_table', () => {
  it('lets the service see and write only its organization’s rows', async () => {
    expect(await asTenant(acme, 'SELECT name FROM projects')).toEqual([{ name: 'acme plan' }]);
    expect(await asTenant(acme, "INSERT INTO projects (organization_id, name) VALUES ($1, 'mine') RETURNING name", [acme])).toEqual([{ name: 'mine' }]);
    await expect(asTenant(acme, "INSERT INTO projects (organization_id, name) VALUES ($1, 'smuggled')", [globex])).rejects.toThrow(/row-level security/);
    expect(await asTenant(acme, "UPDATE projects SET name = 'taken' WHERE id = $1 RETURNING id", [globexProject])).toEqual([]);
    expect(await asTenant(acme, 'DELETE FROM projects WHERE id = $1 RETURNING id', [globexProject])).toEqual([]);
  });

  it('lets an analyst read only the granted organization', async () => {
    const analyst = await createAnalyst(testDb.ownerUrl, ['globex']);
    analystRole = analyst.role;
    expect(await queryOnce(analyst.url, 'SELECT name FROM projects')).toEqual([{ name: 'globex plan' }]);
    expect(await queryOnce(analyst.url, 'SELECT title FROM tasks')).toEqual([{ title: 'globex task' }]);
    await expect(queryOnce(analyst.url, "INSERT INTO projects (organization_id, name) VALUES ($1, 'x')", [globex])).rejects.toThrow(/permission denied/);
  });

  it('refuses a table without organization_id, naming it', async () => {
    await owner('CREATE TABLE loose (id int PRIMARY KEY)');
    await expect(owner("SELECT gatehouse.enable_tenant_table('loose')")).rejects.toThrow(
      'table public.loose needs an organization_id column that is NOT NULL to be a tenant table',
    );
  });

  it('can be called again without duplicating the index or the policies', async () => {
    const count = async () => (await owner<{ n: number }>("SELECT (SELECT count(*) FROM pg_index WHERE indrelid = 'projects'::regclass)::int + (SELECT count(*) FROM pg_policy WHERE polrelid = 'projects'::regclass)::int AS n"))[0]?.n;
    const before = await count();
    await owner("SELECT gatehouse.enable_tenant_table('projects')");
    expect(await count()).toBe(before);
  });

  it('is not callable by the service or by analysts', async () => {
    await expect(asTenant(acme, "SELECT gatehouse.enable_tenant_table('projects')")).rejects.toThrow(/permission denied for schema gatehouse/);
  });
});

describe('gatehouse.enable_child_table', () => {
  it('gives a child its parent’s organization, whatever the caller sends', async () => {
    const [task] = await asTenant(acme, "INSERT INTO tasks (project_id, organization_id, title) VALUES ($1, $2, 'new') RETURNING organization_id", [acmeProject, globex]);
    expect(task).toEqual({ organization_id: acme });
  });

  it('does not find another organization’s parent', async () => {
    await expect(asTenant(acme, "INSERT INTO tasks (project_id, title) VALUES ($1, 'smuggled')", [globexProject])).rejects.toThrow(`project ${globexProject} not found`);
    await expect(asTenant(acme, 'UPDATE tasks SET project_id = $1', [globexProject])).rejects.toThrow(`project ${globexProject} not found`);
  });
});
