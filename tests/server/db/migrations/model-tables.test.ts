import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { generateTokenKeyPair } from '../../../../server/auth/token-keys.js';
import { ConfigError, createServer, defineModel } from '../../../../server/index.js';
import { APP_MIGRATION, createAppDatabase } from '../../../support/app-database.js';
import type { TestDatabase } from '../../../support/database.js';
import { asServiceLogin } from '../../../support/service-login.js';

// createServer refuses, before serving anything, a model whose table would not keep tenants apart.
const projects = defineModel({ slug: 'projects', tenantOwned: true, attributes: { organization_id: 'integer', name: 'string' }, fillable: ['name'] });
const BARE_TABLE = 'CREATE TABLE projects (id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, organization_id integer NOT NULL, name text NOT NULL);';

let database: TestDatabase | undefined;

afterEach(async () => {
  await database?.drop();
  database = undefined;
});

async function start(migration: string, organizationRoles?: Record<string, string[]>) {
  database = await createAppDatabase(migration);
  const { secretKey } = await generateTokenKeyPair();
  return createServer({
    database: asServiceLogin(await database.serviceUrl(), 1),
    tokens: { secretKey },
    routeGroups: [{ name: 'tenant', prefix: '{organization}', default: true, models: ['projects'] }],
    logger: pino({ level: 'silent' }),
    data: { models: [projects] },
    organizationRoles,
  });
}

describe('the start-up check of model tables', () => {
  it('refuses a tenant-owned model whose table has none of the safeguards, naming each', async () => {
    const starting = start(BARE_TABLE);
    await expect(starting).rejects.toBeInstanceOf(ConfigError);
    await expect(starting).rejects.toThrow(
      'Model projects: table projects lacks row-level security enabled, row-level security forced, a gatehouse_app policy with USING, ' +
        'a gatehouse_app policy with WITH CHECK, a gatehouse_analyst read policy, an index starting with organization_id, ' +
        'SELECT, INSERT, UPDATE and DELETE granted to gatehouse_app, SELECT on its columns granted to gatehouse_analyst; ' +
        "a migration with SELECT gatehouse.enable_tenant_table('projects') gives it all.",
    );
  });

  it('names the one safeguard a table lost', async () => {
    const starting = start(`${APP_MIGRATION}\nALTER TABLE projects NO FORCE ROW LEVEL SECURITY;\nDROP POLICY analyst_read ON projects;`);
    await expect(starting).rejects.toThrow('Model projects: table projects lacks row-level security forced, a gatehouse_analyst read policy;');
  });

  it('refuses a model whose table does not exist', async () => {
    await expect(start('SELECT 1;')).rejects.toThrow('Model projects: table projects does not exist (run npx gatehouse migrate).');
  });

  it('serves a tenant table made with gatehouse.enable_tenant_table', async () => {
    const server = await start(APP_MIGRATION);
    try {
      const url = await server.listen({ port: 0, host: '127.0.0.1' });
      expect((await fetch(`${url}/api/acme/projects`)).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe('the start-up check of the roles new organizations start with', () => {
  it('refuses roles missing from the roles table, naming them and the command that creates one', async () => {
    const starting = start(APP_MIGRATION, { owner: ['*'], member: ['projects.index'], auditor: [] });
    await expect(starting).rejects.toBeInstanceOf(ConfigError);
    await expect(starting).rejects.toThrow('organizationRoles names member, auditor, missing from the roles table: create them with npx gatehouse role create <slug>.');
  });

  it('serves once the role exists', async () => {
    const server = await start(`${APP_MIGRATION}\nINSERT INTO roles (name, slug) VALUES ('Member', 'member');`, { owner: ['*'], member: ['projects.index'] });
    try {
      const url = await server.listen({ port: 0, host: '127.0.0.1' });
      expect((await fetch(`${url}/api/ready`)).status).toBe(200);
      expect((await fetch(`${url}/api/acme/projects`)).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
