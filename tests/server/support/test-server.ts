import Router from '@koa/router';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import { generateTokenKeyPair } from '../../../server/auth/token-keys.js';
import type { ServerConfig } from '../../../server/config/server-config.js';
import { createServer, type GatehouseServer } from '../../../server/create-server.js';
import { DEMO_PASSWORD, DEMO_ROLES } from '../../../policies/seed.js';
import type { DataState } from '../../../server/http/state.js';
import { policyContext } from '../../../server/permissions/policy-context.js';
import type { RouteGroupConfig } from '../../../server/models/route-group.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { Api, type RequestOptions } from './http-client.js';
import { asServiceLogin } from '../../support/service-login.js';

export { DEMO_PASSWORD };

/**
 * The demo groups plus a domain group (`{organization}.example.test`, subdomain tenancy) and a
 * group without auth, so every group shape and tenancy mode has something to answer.
 */
export const TEST_ROUTE_GROUPS: RouteGroupConfig[] = [
  { name: 'tenant', prefix: '{organization}', default: true },
  { name: 'admin', prefix: 'admin', tenancy: 'none' },
  { name: 'portal', domain: '{organization}.example.test' },
  { name: 'public', prefix: 'public/{organization}', auth: false },
];

/** Stands in for issue 5's data routes: echoes what the request context resolved. */
function probeRoutes(): Router<DataState> {
  return new Router<DataState>().get('/probe', (ctx) => {
    const policy = policyContext(ctx);
    ctx.body = {
      group: policy.routeGroup,
      organization: policy.organization?.slug ?? null,
      user: ctx.state.auth?.user.email ?? null,
      role: policy.role,
      permissions: ctx.state.authorization?.permissions ?? [],
      inTransaction: ctx.state.trx !== undefined,
    };
  });
}

export interface TestServer {
  api: Api;
  database: TestDatabase;
  secretKey: string;
  server: GatehouseServer;
  /** A query as the database owner, past row-level security: fixtures and assertions. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of any table
  sql<Row extends pg.QueryResultRow = any>(text: string, values?: unknown[]): Promise<Row[]>;
  login(email: string, options?: { path?: string; host?: string }): Promise<string>;
  close(): Promise<void>;
}

let keyPair: Promise<{ secretKey: string }> | undefined;

export interface TestServerOptions extends Partial<ServerConfig> {
  logger?: Logger;
  /** Connect the server to this port instead of the cluster's (a closed port, a proxy). */
  databasePort?: number;
  /** The clock token expiry is judged by. */
  clock?: () => Date;
  /** The database to serve; default a fresh copy of the demo template. */
  testDatabase?: TestDatabase;
}

function viaPort(connectionString: string, port: number | undefined): string {
  if (port === undefined) return connectionString;
  const url = new URL(connectionString);
  url.port = String(port);
  return url.toString();
}

/**
 * A server on an ephemeral port over a fresh demo database, serving as the database's service
 * login while `sql` works as the owner; the token key is shared per file.
 */
export async function startTestServer({ databasePort, clock, testDatabase, ...overrides }: TestServerOptions = {}): Promise<TestServer> {
  const database = testDatabase ?? (await createTestDatabase());
  const { secretKey } = await (keyPair ??= generateTokenKeyPair());
  // As `gatehouse start` serves: through the database's own service login, no role switch at startup.
  const server = await createServer({
    database: asServiceLogin(viaPort(await database.serviceUrl(), databasePort), 4),
    tokens: { secretKey, clock },
    routeGroups: TEST_ROUTE_GROUPS,
    organizationRoles: Object.fromEntries(DEMO_ROLES.map((role) => [role.slug, role.permissions])),
    logger: pino({ level: 'silent' }),
    dataRoutes: probeRoutes,
    ...overrides,
  });
  const api = new Api(await server.listen({ port: 0, host: '127.0.0.1' }));
  const owner = new pg.Pool({ connectionString: database.ownerUrl, max: 2 });
  // pool.end() resolves before its connections are gone: one the drop then cuts must not be an uncaught error.
  owner.on('error', () => {});
  return {
    api,
    database,
    secretKey,
    server,
    sql: async (text, values) => (await owner.query(text, values)).rows,
    async login(email, { path = '/api/auth/login', host } = {}) {
      const options: RequestOptions = { body: { email, password: DEMO_PASSWORD }, host };
      const response = await api.post(path, options);
      if (response.status !== 200) throw new Error(`login of ${email} failed: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body.token as string;
    },
    async close() {
      await server.close();
      await owner.end();
      await database.drop();
    },
  };
}
