// `npm run bench -- record-rules`: record rules (issue 35), in two parts.
//
// The differential test's long version: harness/record-conditions-differential.ts's generator (the
// one `npm test` runs seeded and short) over BENCH_SEEDS seeds (default 20) of BENCH_CASES cases
// each (default 100), each case a generated condition and BENCH_CASE_ROWS hostile rows or half as
// many (default 24), in a database of its own. Every row is checked against the SQL filter: the
// in-memory check on the row as the server reads it, and on its JSON as the browser receives it,
// and CASL with its default options where the rules need nothing more; each also with the
// condition as an exclusion carved from a plain grant, which must let through every other row.
// Reports the rows checked and the disagreements, with the first few; a disagreement makes the
// run exit non-zero.
//
// A conditioned index against the same index with its condition written by hand: the demo
// contributor, a member of a `bench` tenant of BENCH_ROWS posts (default 10,000; every tenth one
// its own), lists `posts` through `posts.index:visible` and `hand_scoped_posts` (the same table,
// bench/support/hand-scoped-posts.ts) through a plain `hand_scoped_posts.index` whose model's
// record scope writes `visible` by hand. Both answer the same rows (checked first). One server
// in a process of its own serves both, autocannon in another; after BENCH_WARMUP_REQUESTS requests
// to each (default 1,000), BENCH_ROUNDS interleaved rounds (default 3) of BENCH_SECONDS (default 3)
// at BENCH_CONNECTIONS (default 8), medians per target.
// Writes bench/results/record-rules.json.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import pg from 'pg';
import { databaseUrl } from '../harness/cluster.js';
import { bothWays, createDifferentialTables, generatedCondition, hostileRows, openDifferentialDatabase } from '../harness/record-conditions-differential.js';
import { withBenchDatabase } from './support/bench-database.js';
import { writeBenchResult } from './support/bench-result.js';
import { seededBenchServersEnv } from './support/bench-servers-env.js';
import { benchSetting as setting } from './support/bench-setting.js';
import { clusterCpu } from './support/cluster-cpu.js';
import { printedGoals, verdictOf, type Goal } from './support/goals.js';
import { handScopedPosts } from './support/hand-scoped-posts.js';
import { interleavedRounds, round2, type HttpTarget, type MedianFigures } from './support/http-target.js';
import { demoToken } from './support/served-demo.js';
import { startServerProcess } from './support/server-process.js';

const SEEDS = setting('BENCH_SEEDS', 20);
const CASES = setting('BENCH_CASES', 100);
const CASE_ROWS = setting('BENCH_CASE_ROWS', 24);
const ROWS = setting('BENCH_ROWS', 10_000);
const SECONDS = setting('BENCH_SECONDS', 3);
const ROUNDS = setting('BENCH_ROUNDS', 3);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 8);
const PER_PAGE = 25;
/** The disagreements printed and written, of however many there are. */
const SHOWN = 5;
const CONTRIBUTOR = 'contributor@acme.test';

const here = dirname(fileURLToPath(import.meta.url));

interface Disagreement {
  seed: number;
  condition: unknown;
  row: unknown;
  in_sql: boolean;
  in_memory: boolean;
  in_browser: boolean;
  /** Null where the rules need Gatehouse's conditions matcher. */
  in_default: boolean | null;
  /** Whether the exclusion let the row through, in memory, in the browser and by CASL's defaults. */
  excluded: (boolean | null)[];
}

/** Whether a side let the row through; null for a side that did not answer. */
const has = (ids: number[] | null, id: number) => (ids === null ? null : ids.includes(id));

/** The generator's cases, seed by seed, each row checked every way, in a database made and dropped here. */
async function longDifferential(ownerUrl: string) {
  const name = `gatehouse_differential_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ownerUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const db = openDifferentialDatabase(databaseUrl(ownerUrl, name));
  const started = performance.now();
  let [cases, rowsChecked] = [0, 0];
  const disagreements: Disagreement[] = [];
  let disagreeing = 0;
  try {
    await createDifferentialTables(db);
    const first = Math.floor(Math.random() * 2 ** 31);
    for (let seed = first; seed < first + SEEDS; seed += 1) {
      for (const [condition, rows] of fc.sample(fc.tuple(generatedCondition, hostileRows({ minLength: Math.ceil(CASE_ROWS / 2), maxLength: CASE_ROWS })), { seed, numRuns: CASES })) {
        const answers = await bothWays(db, condition, rows);
        rows.forEach((row, index) => {
          const id = index + 1;
          const inSql = answers.inSql.includes(id);
          const [inMemory, inBrowser, inDefault] = [answers.inMemory, answers.inBrowser, answers.inDefault].map((ids) => has(ids, id));
          const excluded = [answers.excludedInMemory, answers.excludedInBrowser, answers.excludedInDefault].map((ids) => has(ids, id));
          if ([inMemory, inBrowser, inDefault].every((side) => side === null || side === inSql) && excluded.every((side) => side === null || side === !inSql)) return;
          disagreeing += 1;
          if (disagreements.length < SHOWN) disagreements.push({ seed, condition, row, in_sql: inSql, in_memory: inMemory!, in_browser: inBrowser!, in_default: inDefault ?? null, excluded });
        });
        cases += 1;
        rowsChecked += rows.length;
      }
      console.log(`seed ${seed}: ${cases} cases, ${rowsChecked} rows checked, ${disagreeing} disagreements so far`);
    }
    return { seeds: { first, count: SEEDS }, cases, rows_checked: rowsChecked, disagreements: disagreeing, first_disagreements: disagreements, seconds: round2((performance.now() - started) / 1000) };
  } finally {
    await db.destroy();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** The contributor as a member of the bench tenant, holding `posts.index:visible` and the hand-scoped model's plain index; every tenth post its own. */
async function contributorInBenchTenant(ownerUrl: string, organizationId: number): Promise<void> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO org_role_permissions (organization_id, role_id, permissions) SELECT $1, id, $2 FROM roles WHERE slug = 'contributor'`,
      [organizationId, ['posts.index:visible', `${handScopedPosts.slug}.index`]],
    );
    await client.query(
      `INSERT INTO user_roles (user_id, organization_id, role_id, route_group)
       SELECT users.id, $1, roles.id, 'tenant' FROM users, roles WHERE users.email = $2 AND roles.slug = 'contributor'`,
      [organizationId, CONTRIBUTOR],
    );
    await client.query(`UPDATE posts SET author_id = (SELECT id FROM users WHERE email = $2) WHERE organization_id = $1 AND id % 10 = 0`, [organizationId, CONTRIBUTOR]);
    await client.query('VACUUM ANALYZE posts');
  } finally {
    await client.end();
  }
}

/** A page's ids and its total, which the two indexes must answer alike before either is measured. */
async function page(url: string, authorization: string): Promise<{ ids: number[]; total: string | null }> {
  const response = await fetch(url, { headers: { authorization } });
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  const { data } = (await response.json()) as { data: { id: number }[] };
  return { ids: data.map((row) => row.id), total: response.headers.get('x-total') };
}

const CONDITIONED = 'index, `posts.index:visible` (conditioned)';
const HAND_WRITTEN = 'index, the same condition as a hand-written scope';

await withBenchDatabase(async (ownerUrl) => {
  console.log(`The differential test, long: ${SEEDS} seeds of ${CASES} cases, ${Math.ceil(CASE_ROWS / 2)} to ${CASE_ROWS} rows each...`);
  const differential = await longDifferential(ownerUrl);

  const { tenant, env } = await seededBenchServersEnv(ownerUrl, ROWS, CONNECTIONS);
  await contributorInBenchTenant(ownerUrl, tenant.organizationId);
  const server = await startServerProcess('gatehouse', join(here, 'http', 'gatehouse-server.ts'), { ...env, BENCH_HAND_SCOPED_POSTS: '1' });
  const postgresCpu = await clusterCpu(ownerUrl);
  const loadBefore = loadavg();
  let results: Record<string, MedianFigures>;
  let sameRows: { page_ids: number; total: number };
  try {
    const authorization = `Bearer ${await demoToken(server.url, CONTRIBUTOR)}`;
    const paths = { conditioned: `/api/${tenant.slug}/posts?per_page=${PER_PAGE}`, handWritten: `/api/${tenant.slug}/${handScopedPosts.slug}?per_page=${PER_PAGE}` };
    const [conditioned, handWritten] = [await page(server.url + paths.conditioned, authorization), await page(server.url + paths.handWritten, authorization)];
    if (JSON.stringify(conditioned) !== JSON.stringify(handWritten)) throw new Error(`The two indexes answer different rows: ${JSON.stringify({ conditioned, handWritten })}`);
    sameRows = { page_ids: conditioned.ids.length, total: Number(conditioned.total) };
    const targets: HttpTarget[] = [
      { name: CONDITIONED, server, path: paths.conditioned },
      { name: HAND_WRITTEN, server, path: paths.handWritten },
    ];
    results = await interleavedRounds(targets, { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS }, authorization, postgresCpu);
  } finally {
    await server.stop();
  }
  const loadAfterRounds = loadavg();

  const ratio = (name: 'serverCpuMsPerRequest' | 'p50Ms' | 'p99Ms') => round2(results[CONDITIONED]![name] / results[HAND_WRITTEN]![name]);
  const goals: Goal[] = [
    { name: 'server CPU per index page, conditioned / hand-written', bound: 'at most', target: 1.1, measured: ratio('serverCpuMsPerRequest') },
    { name: 'req/s, hand-written / conditioned', bound: 'at most', target: 1.1, measured: round2(results[HAND_WRITTEN]!.requestsPerSecond / results[CONDITIONED]!.requestsPerSecond) },
    { name: 'p50, conditioned / hand-written', bound: 'at most', target: 1.1, measured: ratio('p50Ms') },
  ];
  const verdicts = Object.fromEntries(goals.map((goal) => [goal.name, verdictOf(goal)]));
  const result = {
    benchmark: 'record-rules',
    differential,
    index: {
      rows_in_tenant: ROWS,
      per_page: PER_PAGE,
      same_rows: sameRows,
      connections: CONNECTIONS,
      seconds_per_round: SECONDS,
      rounds: ROUNDS,
      load_generator: 'autocannon, in its own process',
      results,
      p99_ratio_conditioned_over_hand_written: ratio('p99Ms'),
      goals: verdicts,
    },
    load_average: { before: loadBefore.map(round2), after_rounds: loadAfterRounds.map(round2) },
    node: process.version,
    measured_at: new Date().toISOString(),
  };
  await writeBenchResult('record-rules', result, { differential, results });
  console.log(`\nGoals (issue 35), one run:\n${printedGoals(verdicts)}`);
  console.log(`\nDifferential: ${differential.rows_checked} rows checked in ${differential.cases} cases, ${differential.disagreements} disagreements`);
  if (differential.disagreements > 0) process.exitCode = 1;
});
