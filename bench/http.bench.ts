// `npm run bench -- http`: what the service costs on top of its own SQL. A `bench` tenant with
// 100,000 posts; index (25 rows and the total) and show, asked through the real HTTP server over
// loopback, and the very statements those endpoints run sent straight through pg in the same
// process (as the service role, in the same tenant transaction). Writes bench/results/http.json.
import { Agent, request } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { pino } from 'pino';
import { demoData } from '../policies/demo-data.js';
import { posts } from '../policies/models/posts.js';
import { generateTokenKeyPair } from '../server/auth/token-keys.js';
import { DEMO_ROUTE_GROUPS } from '../policies/route-groups.js';
import { createServer } from '../server/create-server.js';
import { recordStatement } from '../server/data/find-record.js';
import { appConnectionString } from '../server/db/database.js';
import { tenantOpeningSql } from '../server/db/with-tenant.js';
import { DEMO_PASSWORD, DEMO_ROLES, seedDemo } from '../policies/seed.js';
import { createModelRegistry } from '../server/models/model-registry.js';
import { gatedQuery, narrowQuery, pageStatements } from '../server/query/build-index-query.js';
import type { LooseSchema, LooseTransaction } from '../server/query/loose-schema.js';
import { parseIndexQuery } from '../server/query/parse-index-query.js';
import { withBenchDatabase } from './support/bench-database.js';
import { measureThroughput, type Throughput } from './support/measure-throughput.js';
import { seedBenchTenant, type BenchTenant } from './support/seed-bench-tenant.js';

const ROWS = 100_000;
const PER_PAGE = 25;
const CONNECTIONS = 8;
const CONCURRENCY = 8;
const ROUNDS = 3;
const SAMPLE = { requests: 2_000, concurrency: CONCURRENCY, warmup: 200 };

const resultsFile = join(dirname(fileURLToPath(import.meta.url)), 'results', 'http.json');

type Task = () => Promise<void>;

interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

/** The statements of `GET /posts?per_page=25` and `GET /posts/{id}`, compiled by the data layer itself. */
function endpointStatements(tenant: BenchTenant, userId: number): { index: Statement[]; show: Statement[] } {
  // Compiling needs no connection; the pool is never asked for one.
  const compiler = new Kysely<LooseSchema>({ dialect: new PostgresDialect({ pool: new pg.Pool() }) }) as unknown as LooseTransaction;
  const registry = createModelRegistry(demoData.models, demoData.policies);
  const scope = { organizationId: tenant.organizationId, userId, routeGroup: 'tenant' };
  const query = parseIndexQuery(registry, posts, { per_page: String(PER_PAGE) });
  const page = pageStatements(narrowQuery(gatedQuery(compiler, posts, scope), posts, query, scope), query);
  return {
    index: [page.rows.compile(), page.total.compile()],
    show: [recordStatement(compiler, posts, scope, tenant.postId).compile()],
  };
}

/** Each task runs the statements as the endpoint does: one tenant transaction, the data statements side by side. */
function rawTask(pool: pg.Pool, tenant: BenchTenant, userId: number, statements: Statement[]): Task {
  return async () => {
    const client = await pool.connect();
    try {
      await client.query(tenantOpeningSql({ organizationId: tenant.organizationId, userId }));
      await Promise.all(statements.map((statement) => client.query(statement.sql, [...statement.parameters])));
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  };
}

function get(agent: Agent, url: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

function httpTask(agent: Agent, url: string, token: string): Task {
  return async () => {
    const response = await get(agent, url, token);
    if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${response.body}`);
  };
}

/** Of interleaved rounds, the one with the median rate stands for its side. */
const median = (rounds: Throughput[]) => [...rounds].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(rounds.length / 2)]!;

await withBenchDatabase(async (ownerUrl) => {
  await seedDemo(ownerUrl);
  console.log(`Seeding a tenant with ${ROWS} posts...`);
  const tenant = await seedBenchTenant(ownerUrl, ROWS);
  const server = await createServer({
    database: { connectionString: ownerUrl, maxConnections: CONNECTIONS },
    tokens: { secretKey: (await generateTokenKeyPair()).secretKey },
    routeGroups: DEMO_ROUTE_GROUPS,
    organizationRoles: Object.fromEntries(DEMO_ROLES.map((role) => [role.slug, role.permissions])),
    data: demoData,
    // Request logs are written, as in production, but to nowhere.
    logger: pino(pino.destination('/dev/null')),
  });
  const raw = new pg.Pool({ connectionString: appConnectionString(ownerUrl), max: CONNECTIONS });
  // pg-pool resolves end() before its clients' sockets close; dropping the database then ends them.
  raw.on('error', () => {});
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    const baseUrl = await server.listen({ port: 0, host: '127.0.0.1' });
    const login = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@acme.test', password: DEMO_PASSWORD }),
    });
    const { token, user } = (await login.json()) as { token: string; user: { id: number } };
    const statements = endpointStatements(tenant, user.id);
    const urls = { index: `${baseUrl}/api/${tenant.slug}/posts?per_page=${PER_PAGE}`, show: `${baseUrl}/api/${tenant.slug}/posts/${tenant.postId}` };

    const indexBody = (await get(agent, urls.index, token)).body;
    const rowsAnswered = (JSON.parse(indexBody) as { data: unknown[] }).data.length;
    if (rowsAnswered !== PER_PAGE) throw new Error(`the index answered ${rowsAnswered} rows`);
    const sides = {
      index: { http: httpTask(agent, urls.index, token), raw: rawTask(raw, tenant, user.id, statements.index) },
      show: { http: httpTask(agent, urls.show, token), raw: rawTask(raw, tenant, user.id, statements.show) },
    };
    const results: Record<string, unknown> = {};
    for (const [name, side] of Object.entries(sides)) {
      console.log(`Measuring ${name}...`);
      const rawRounds: Throughput[] = [];
      const httpRounds: Throughput[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        rawRounds.push(await measureThroughput(side.raw, SAMPLE));
        httpRounds.push(await measureThroughput(side.http, SAMPLE));
      }
      const [rawResult, httpResult] = [median(rawRounds), median(httpRounds)];
      results[name] = { raw_sql: rawResult, http: httpResult, ratio: Number((httpResult.requestsPerSecond / rawResult.requestsPerSecond).toFixed(3)) };
    }
    const result = {
      benchmark: 'http',
      rows_in_tenant: ROWS,
      per_page: PER_PAGE,
      index_response_bytes: Buffer.byteLength(indexBody),
      connections: CONNECTIONS,
      concurrency: CONCURRENCY,
      requests_per_round: SAMPLE.requests,
      rounds: ROUNDS,
      statements: { index: statements.index.map((statement) => statement.sql), show: statements.show.map((statement) => statement.sql) },
      ...results,
      node: process.version,
      server: (await raw.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version,
      measured_at: new Date().toISOString(),
    };
    await mkdir(dirname(resultsFile), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
    for (const name of Object.keys(sides)) {
      const { ratio } = results[name] as { ratio: number };
      console.log(`${name}: the HTTP server reaches ${(ratio * 100).toFixed(0)}% of the raw SQL rate (target: at least 50%).`);
    }
  } finally {
    agent.destroy();
    await raw.end();
    await server.close();
  }
});
