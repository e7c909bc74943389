// `npm run bench -- rls`: what row-level security costs the service on an indexed query.
// 1,000 organizations, 1,000,000 posts; the 25 newest posts of one organization, asked as the
// owner (a superuser: no RLS) and as the service, gatehouse_app inside withTenant (RLS), both
// through kysely on one pooled connection. Writes bench/results/rls.json.
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../server/db/connection/database.js';
import type { DemoSchema } from '../policies/schema.js';
import { withTenant } from '../server/db/transactions/tenant-transaction.js';
import { withBenchDatabase } from './support/bench-database.js';
import { writeBenchResult } from './support/bench-result.js';

const ORGANIZATIONS = 1_000;
const POSTS = 1_000_000;
const WARMUP = 300;
const SAMPLES = 3_000;
const PAGE = 25;


// The owner needs the WHERE; under RLS it is redundant but kept, so both run the same query.
const newestPosts = (db: Kysely<DemoSchema>, organizationId: number) =>
  db
    .selectFrom('posts')
    .select(['id', 'organization_id', 'title', 'created_at'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(PAGE);

// What the service usually sends: no filter, the policy supplies it.
const newestPostsByPolicy = (db: Kysely<DemoSchema>) =>
  db.selectFrom('posts').select(['id', 'organization_id', 'title', 'created_at']).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(PAGE);

async function load(owner: Kysely<DemoSchema>): Promise<number> {
  const started = performance.now();
  await sql`INSERT INTO organizations (name, slug)
    SELECT 'Bench organization ' || g, 'bench-' || g FROM generate_series(1, ${sql.lit(ORGANIZATIONS)}) g`.execute(owner);
  // Organizations take turns, so each one's posts are spread over the whole table.
  await sql`INSERT INTO posts (organization_id, title, body, status, created_at, updated_at)
    SELECT o.first + g % ${sql.lit(ORGANIZATIONS)}, 'Post ' || g, 'Body of post ' || g,
           CASE WHEN g % 3 = 0 THEN 'draft' ELSE 'published' END,
           now() - g * interval '1 second', now() - g * interval '1 second'
    FROM generate_series(1, ${sql.lit(POSTS)}) g, (SELECT min(id) AS first FROM organizations) o`.execute(owner);
  await sql`VACUUM ANALYZE organizations, posts`.execute(owner);
  return (performance.now() - started) / 1000;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const started = process.hrtime.bigint();
  const result = await fn();
  return [Number(process.hrtime.bigint() - started) / 1e6, result];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const p50 = (values: number[]) => Number(median(values).toFixed(4));
const ratio = (numerator: number[], denominator: number[]) => Number((median(numerator) / median(denominator)).toFixed(3));

function assertPage(rows: { organization_id: number }[], organizationId: number, who: string): void {
  if (rows.length !== PAGE || rows.some((row) => row.organization_id !== organizationId)) {
    throw new Error(`${who} did not get the ${PAGE} newest posts of organization ${organizationId}`);
  }
}

/** Planning plus execution time as the server reports it: the cost without the round trip. */
async function serverMs(db: Kysely<DemoSchema>, organizationId: number): Promise<number> {
  const [row] = await newestPosts(db, organizationId).explain('json', sql`analyze`);
  const [plan] = (row?.['QUERY PLAN'] ?? []) as { 'Planning Time': number; 'Execution Time': number }[];
  return (plan?.['Planning Time'] ?? Number.NaN) + (plan?.['Execution Time'] ?? Number.NaN);
}

async function measure(owner: Kysely<DemoSchema>, app: Kysely<DemoSchema>, organizationIds: number[]) {
  const samples = { owner: [] as number[], app: [] as number[], ownerServer: [] as number[], appServer: [] as number[], request: [] as number[] };
  for (let i = 0; i < WARMUP + SAMPLES; i += 1) {
    const organizationId = organizationIds[(i * 7_919) % organizationIds.length] ?? Number.NaN;
    const context = { organizationId, userId: null };
    // Both time the query alone inside a transaction: what RLS adds, not what BEGIN and COMMIT cost.
    const [ownerTime, ownerRows] = await owner.transaction().execute((trx) => timed(() => newestPosts(trx, organizationId).execute()));
    assertPage(ownerRows, organizationId, 'the owner');
    const [requestTime, [appTime, appRows]] = await timed(() => withTenant(app, context, (trx) => timed(() => newestPosts(trx, organizationId).execute())));
    assertPage(appRows, organizationId, 'the service');
    const ownerServer = await serverMs(owner, organizationId);
    const appServer = await withTenant(app, context, (trx) => serverMs(trx, organizationId));
    if (i < WARMUP) continue;
    samples.owner.push(ownerTime);
    samples.app.push(appTime);
    samples.ownerServer.push(ownerServer);
    samples.appServer.push(appServer);
    samples.request.push(requestTime);
  }
  return samples;
}

async function policyPlan(app: Kysely<DemoSchema>, organizationId: number): Promise<string> {
  const rows = await withTenant(app, { organizationId, userId: null }, (trx) => newestPostsByPolicy(trx).explain());
  return rows.map((row) => String(row['QUERY PLAN']).trim()).join(' | ');
}

await withBenchDatabase(async (url) => {
  const ownerPool = new pg.Pool({ connectionString: url, max: 1 });
  // pg-pool resolves end() before its client's socket closes; dropping the database then ends it.
  ownerPool.on('error', () => {});
  const owner = new Kysely<DemoSchema>({ dialect: new PostgresDialect({ pool: ownerPool }) });
  const app = openDatabase<DemoSchema>({ connectionString: url, maxConnections: 1 });
  try {
    const { rows } = await sql<{ rolsuper: boolean }>`SELECT rolsuper FROM pg_roles WHERE rolname = current_user`.execute(owner);
    if (!rows[0]?.rolsuper) throw new Error('The rls benchmark compares against a superuser, which bypasses RLS: DATABASE_URL must name one.');
    console.log(`Loading ${ORGANIZATIONS} organizations and ${POSTS} posts...`);
    const loadSeconds = await load(owner);
    const organizationIds = (await owner.selectFrom('organizations').select('id').orderBy('id').execute()).map((row) => row.id);
    const samples = await measure(owner, app.db, organizationIds);
    const result = {
      benchmark: 'rls',
      organizations: ORGANIZATIONS,
      posts: POSTS,
      samples: SAMPLES,
      query: newestPosts(owner, 0).compile().sql,
      owner_p50_ms: p50(samples.owner),
      app_p50_ms: p50(samples.app),
      ratio: ratio(samples.app, samples.owner),
      owner_server_p50_ms: p50(samples.ownerServer),
      app_server_p50_ms: p50(samples.appServer),
      server_ratio: ratio(samples.appServer, samples.ownerServer),
      app_request_p50_ms: p50(samples.request),
      app_plan_without_where: await policyPlan(app.db, organizationIds[0] ?? Number.NaN),
      load_seconds: Number(loadSeconds.toFixed(1)),
      server: (await sql<{ server_version: string }>`SHOW server_version`.execute(owner)).rows[0]?.server_version,
      measured_at: new Date().toISOString(),
    };
    await writeBenchResult('rls', result);
    console.log(`RLS costs ${result.ratio}x the owner's p50 round trip, ${result.server_ratio}x its server time (target: under 1.2x).`);
  } finally {
    await Promise.all([owner.destroy(), app.close()]);
  }
});
