import { randomBytes } from 'node:crypto';
import { DEMO_ROLES } from '../../../policies/demo-accounts.js';
import type { TestServer } from './test-server.js';

/** A user with the demo password, signed in over HTTP in the default group. */
export interface Account {
  id: number;
  email: string;
  token: string;
}

export type DemoRole = (typeof DEMO_ROLES)[number]['slug'];

export interface Membership {
  account: Account;
  role: DemoRole;
  granted?: string[];
  denied?: string[];
}

export interface Tenant {
  id: number;
  slug: string;
  /** `/api/{slug}{path}`. */
  path(path: string): string;
}

const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}`;

/** New users, each signed in through the login route: the tokens are real ones. */
export async function createAccounts<const Labels extends string[]>(server: TestServer, ...labels: Labels): Promise<{ [K in keyof Labels]: Account }> {
  const accounts = await Promise.all(
    labels.map(async (label) => {
      const email = `${unique(label)}@attack.test`;
      const [row] = await server.sql<{ id: number }>(
        "INSERT INTO users (name, email, password_hash) SELECT $1, $2, password_hash FROM users WHERE email = 'owner@acme.test' RETURNING id",
        [label, email],
      );
      return { id: row!.id, email, token: await server.login(email) };
    }),
  );
  return accounts as { [K in keyof Labels]: Account };
}

/** An organization with the demo roles' permissions and these members in the `tenant` group. */
export async function createTenant(server: TestServer, members: readonly Membership[]): Promise<Tenant> {
  const slug = unique('org');
  const [organization] = await server.sql<{ id: number }>('INSERT INTO organizations (name, slug) VALUES ($1, $1) RETURNING id', [slug]);
  const id = organization!.id;
  await server.sql(
    'INSERT INTO org_role_permissions (organization_id, role_id, permissions) SELECT $1, roles.id, p.permissions FROM json_to_recordset($2) AS p(slug text, permissions text[]) JOIN roles USING (slug)',
    [id, JSON.stringify(DEMO_ROLES)],
  );
  for (const { account, role, granted = [], denied = [] } of members) {
    await server.sql(
      "INSERT INTO user_roles (user_id, organization_id, role_id, route_group, granted_permissions, denied_permissions) SELECT $1, $2, id, 'tenant', $4, $5 FROM roles WHERE slug = $3",
      [account.id, id, role, granted, denied],
    );
  }
  return { id, slug, path: (path) => `/api/${slug}${path}` };
}

/** Each membership of the organization as the database holds it, by user id. */
export async function membershipsOf(server: TestServer, tenant: Tenant) {
  return server.sql<{ user_id: number; role: string; granted_permissions: string[]; denied_permissions: string[] }>(
    'SELECT user_id, roles.slug AS role, granted_permissions, denied_permissions FROM user_roles JOIN roles ON roles.id = role_id WHERE organization_id = $1 ORDER BY user_id',
    [tenant.id],
  );
}

/** The organization's audit rows of one model, oldest first. */
export async function auditRowsOf(server: TestServer, tenant: Tenant, model: string) {
  return server.sql('SELECT record_id, action, old_values, new_values, user_id FROM audit_logs WHERE organization_id = $1 AND model = $2 ORDER BY id', [tenant.id, model]);
}
