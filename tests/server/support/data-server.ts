import { demoData } from '../../../policies/demo-data.js';
import { DEMO_ROUTE_GROUPS } from '../../../policies/route-groups.js';
import type { RouteGroupConfig } from '../../../server/models/route-group.js';
import { startTestServer, type TestServer, type TestServerOptions } from './test-server.js';

export const ACME_HOST = 'acme.example.test';

/**
 * The demo groups `npm start` serves (tenant: path tenancy, also with the group in the data path;
 * admin: no tenancy), a domain group (subdomain tenancy) and a group without auth, all serving
 * the demo models.
 */
export const DATA_ROUTE_GROUPS: RouteGroupConfig[] = [
  ...DEMO_ROUTE_GROUPS,
  { name: 'portal', domain: '{organization}.example.test', models: ['posts', 'comments', 'users'] },
  { name: 'public', prefix: 'public/{organization}', auth: false, models: ['posts'] },
];

/** A test server with the demo application's models and policies behind every group. */
export function startDataServer(options: TestServerOptions = {}): Promise<TestServer> {
  return startTestServer({ routeGroups: DATA_ROUTE_GROUPS, dataRoutes: undefined, data: demoData, ...options });
}

/** The id of a seeded post, found by its title as the owner. */
export async function postId(server: TestServer, title: string): Promise<number> {
  const [row] = await server.sql<{ id: number }>('SELECT id FROM posts WHERE title = $1', [title]);
  if (!row) throw new Error(`no post titled ${title}`);
  return row.id;
}

/** The id of a row found by one column, as the owner. */
export async function idOf(server: TestServer, table: 'users' | 'organizations' | 'roles', column: 'email' | 'slug', value: string): Promise<number> {
  const [row] = await server.sql<{ id: number }>(`SELECT id FROM ${table} WHERE ${column} = $1`, [value]);
  if (!row) throw new Error(`no ${table} row with ${column} ${value}`);
  return row.id;
}
