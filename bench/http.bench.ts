// `npm run bench -- http`: the service against two minimal Koa + pg endpoints doing the same
// checks, all over HTTP, each server in a process of its own and autocannon in another: the
// minimal endpoint as Gatehouse used to talk to PostgreSQL, statement by statement in three round
// trips for show (bench/http/minimal-server.ts), and the floor, its whole transaction in one
// simple-protocol message (bench/http/one-round-trip-server.ts). A `bench` tenant with BENCH_ROWS
// posts (default 100,000); every target is measured in each of BENCH_ROUNDS interleaved rounds
// (default 3) of BENCH_SECONDS (default 5) at BENCH_CONNECTIONS connections (default 8), show
// also at BENCH_TAIL_CONNECTIONS (default 32) for its p99; each figure reported is its own median
// over the rounds. Show is also measured on three more instances of the service, which serve
// nothing else: metrics off, Prometheus metrics on, and metrics and OpenTelemetry traces on, for
// what observing the service costs. (The instance above also serves the index targets; one that
// sits idle between its show rounds measured about 30% more CPU per show, so observing is
// compared only between instances that are used alike.) Then a fresh instance answers BENCH_SOAK_REQUESTS shows (default 200,000) and its
// RSS is read after a tenth of them and after all.
// BENCH_ONLY=<text> measures only the targets whose name contains it (`BENCH_ONLY=show`), and
// prints its figures without replacing bench/results/http.json.
// Reports req/s, p50, p99 and the CPU milliseconds per request of the server's process and of
// PostgreSQL, the machine's load average (1, 5, 15 minutes) before and after the rounds, and each
// of issue 27's goals as met or missed; writes bench/results/http.json.
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBenchDatabase } from './support/bench-database.js';
import { seededBenchServersEnv } from './support/bench-servers-env.js';
import { clusterCpu } from './support/cluster-cpu.js';
import { printedGoals, verdictOf, type Goal } from './support/goals.js';
import { interleavedRounds, round2, type HttpTarget } from './support/http-target.js';
import { generateLoad } from './support/load-generator.js';
import { peakRssDuring, rssMiB } from './support/process-memory.js';
import { ownerAuthorization } from './support/sign-in.js';
import { startServerProcess } from './support/server-process.js';
import { benchSetting as setting } from './support/bench-setting.js';
import { writeBenchResult } from './support/bench-result.js';

const ROWS = setting('BENCH_ROWS', 100_000);
const SECONDS = setting('BENCH_SECONDS', 5);
const ROUNDS = setting('BENCH_ROUNDS', 3);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 8);
const TAIL_CONNECTIONS = setting('BENCH_TAIL_CONNECTIONS', 32);
const SOAK_REQUESTS = setting('BENCH_SOAK_REQUESTS', 200_000);
/** The soak compares RSS after this share of its requests with RSS after all of them. */
const SOAK_EARLY = Math.round(SOAK_REQUESTS / 10);
const ONLY = process.env.BENCH_ONLY ?? '';
const PER_PAGE = 25;
/** The cursor page's depth: 50,000 rows in, or half the tenant when it is smaller. */
const DEPTH = Math.min(50_000, Math.floor(ROWS / 2 / PER_PAGE) * PER_PAGE);

const here = dirname(fileURLToPath(import.meta.url));

const SHOW_FLOOR = 'show: minimal, 1 round trip';
const SHOW = 'show: gatehouse';
const SHOW_UNOBSERVED = 'show: gatehouse, metrics off';
const TAIL_FLOOR = `show at ${TAIL_CONNECTIONS} connections: minimal, 1 round trip`;
const TAIL = `show at ${TAIL_CONNECTIONS} connections: gatehouse`;
const INDEX_FLOOR = 'index exact: minimal, 1 round trip';
const INDEX = 'index exact: gatehouse';
const SOAK = `soak: ${SOAK_REQUESTS} shows, gatehouse`;

await withBenchDatabase(async (ownerUrl) => {
  const { tenant, env } = await seededBenchServersEnv(ownerUrl, ROWS, CONNECTIONS);
  const gatehouseModule = join(here, 'http', 'gatehouse-server.ts');
  const gatehouse = await startServerProcess('gatehouse', gatehouseModule, env);
  const unobserved = await startServerProcess('gatehouse, metrics off', gatehouseModule, env);
  const metered = await startServerProcess('gatehouse, metrics on', gatehouseModule, { ...env, BENCH_METRICS: '1' });
  const traced = await startServerProcess('gatehouse, metrics and tracing on', gatehouseModule, { ...env, BENCH_METRICS: '1', BENCH_TRACING: '1' });
  const minimal = await startServerProcess('minimal, step by step', join(here, 'http', 'minimal-server.ts'), env);
  const floor = await startServerProcess('minimal, 1 round trip', join(here, 'http', 'one-round-trip-server.ts'), env);
  const postgresCpu = await clusterCpu(ownerUrl);
  try {
    const authorization = await ownerAuthorization(gatehouse.url);
    const index = `/api/${tenant.slug}/posts?per_page=${PER_PAGE}`;
    const uncounted = { Prefer: 'count=none' };
    const deep = await fetch(`${gatehouse.url}${index}&page=${DEPTH / PER_PAGE}`, { headers: { authorization, ...uncounted } });
    const cursor = deep.headers.get('x-next-cursor');
    if (deep.status !== 200 || !cursor) throw new Error(`no cursor at depth ${DEPTH}: ${deep.status} ${await deep.text()}`);

    const show = `/api/${tenant.slug}/posts/${tenant.postId}`;
    const targets: HttpTarget[] = [
      { name: 'show: minimal, 3 round trips', server: minimal, path: show },
      { name: SHOW_FLOOR, server: floor, path: show },
      { name: SHOW, server: gatehouse, path: show },
      { name: SHOW_UNOBSERVED, server: unobserved, path: show },
      { name: 'show: gatehouse, metrics on', server: metered, path: show },
      { name: 'show: gatehouse, metrics and tracing on', server: traced, path: show },
      { name: TAIL_FLOOR, server: floor, path: show, connections: TAIL_CONNECTIONS },
      { name: TAIL, server: gatehouse, path: show, connections: TAIL_CONNECTIONS },
      { name: 'index exact: minimal, 4 round trips', server: minimal, path: index },
      { name: INDEX_FLOOR, server: floor, path: index },
      { name: INDEX, server: gatehouse, path: index },
      { name: 'index planned: gatehouse', server: gatehouse, path: index, headers: { Prefer: 'count=planned' } },
      { name: 'index page 1, no count: gatehouse', server: gatehouse, path: index, headers: uncounted },
      { name: `index cursor at ${DEPTH}, no count: gatehouse`, server: gatehouse, path: `${index}&cursor=${encodeURIComponent(cursor)}`, headers: uncounted },
    ].filter((target) => target.name.includes(ONLY));
    /**
     * RSS of a fresh instance of the service: idle before its first request, the most sampled
     * under load, after a tenth of the soak's shows and after all of them.
     */
    const soak = async () => {
      const server = await startServerProcess('gatehouse, soak', gatehouseModule, env);
      try {
        const idleRssMiB = await rssMiB(server.pid);
        const shows = (requests: number) =>
          peakRssDuring(server.pid, () => generateLoad({ url: `${server.url}${show}`, headers: { authorization }, connections: CONNECTIONS, length: { requests } }));
        const early = await shows(SOAK_EARLY);
        const rssAfterEarlyMiB = await rssMiB(server.pid);
        const rest = await shows(SOAK_REQUESTS - SOAK_EARLY);
        const rssAfterAllMiB = await rssMiB(server.pid);
        return {
          requests: SOAK_REQUESTS,
          earlyRequests: SOAK_EARLY,
          connections: CONNECTIONS,
          requestsPerSecond: rest.result.requestsPerSecond,
          idleRssMiB,
          peakRssUnderLoadMiB: Math.max(early.peakRssMiB, rest.peakRssMiB),
          rssAfterEarlyMiB,
          rssAfterAllMiB,
          growth: round2(rssAfterAllMiB / rssAfterEarlyMiB),
        };
      } finally {
        await server.stop();
      }
    };

    // The machine may be shared: its load while the rounds ran says how far the rates can be trusted.
    const loadBefore = loadavg();
    const results = await interleavedRounds(targets, { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS }, authorization, postgresCpu);
    const loadAfterRounds = loadavg();
    let soaked: Awaited<ReturnType<typeof soak>> | null = null;
    if (SOAK.includes(ONLY)) {
      console.log(`Soak: ${SOAK_REQUESTS} shows on a fresh instance...`);
      soaked = await soak();
    }

    /** A ratio of two measured targets' figures; BENCH_ONLY may have left either out. */
    const ratio = (over: string, under: string, figure: 'requestsPerSecond' | 'p99Ms' = 'requestsPerSecond') =>
      results[over] && results[under] ? round2(results[over][figure] / results[under][figure]) : null;
    const compared: [string, string, string][] = [
      ['show: gatehouse / minimal, 3 round trips (target >= 0.8)', SHOW, 'show: minimal, 3 round trips'],
      ['show: gatehouse / minimal, 1 round trip', SHOW, SHOW_FLOOR],
      ['show: minimal, 1 round trip / 3 round trips', SHOW_FLOOR, 'show: minimal, 3 round trips'],
      ['show: metrics on / off (target >= 0.95)', 'show: gatehouse, metrics on', SHOW_UNOBSERVED],
      ['show: metrics and tracing on / off', 'show: gatehouse, metrics and tracing on', SHOW_UNOBSERVED],
      ['index exact: gatehouse / minimal, 4 round trips (target >= 0.9)', INDEX, 'index exact: minimal, 4 round trips'],
      ['index exact: gatehouse / minimal, 1 round trip', INDEX, INDEX_FLOOR],
      ['index planned / index exact, gatehouse (target >= 4)', 'index planned: gatehouse', INDEX],
      [`cursor at ${DEPTH} / page 1, gatehouse (target >= 0.67, within 1.5x)`, `index cursor at ${DEPTH}, no count: gatehouse`, 'index page 1, no count: gatehouse'],
    ];
    const ratios = Object.fromEntries(compared.map(([name, over, under]) => [name, ratio(over, under)]).filter(([, value]) => value !== null));
    // Issue 27's goals, against the one-round-trip floor.
    const goals: Goal[] = [
      { name: 'show req/s, gatehouse / floor', bound: 'at least', target: 1, measured: ratio(SHOW, SHOW_FLOOR) },
      { name: 'index page 1 with exact totals req/s, gatehouse / floor', bound: 'at least', target: 1, measured: ratio(INDEX, INDEX_FLOOR) },
      { name: 'server CPU ms per show, gatehouse', bound: 'at most', target: 0.25, measured: results[SHOW]?.serverCpuMsPerRequest },
      { name: `show p99 at ${TAIL_CONNECTIONS} connections, gatehouse / floor`, bound: 'at most', target: 1.2, measured: ratio(TAIL, TAIL_FLOOR, 'p99Ms') },
      { name: `RSS after ${SOAK_REQUESTS} / after ${SOAK_EARLY} shows, gatehouse`, bound: 'at most', target: 1.1, measured: soaked?.growth },
    ];
    const verdicts = Object.fromEntries(goals.map((goal) => [goal.name, verdictOf(goal)]));
    const result = {
      benchmark: 'http',
      rows_in_tenant: ROWS,
      per_page: PER_PAGE,
      cursor_depth: DEPTH,
      connections: CONNECTIONS,
      tail_connections: TAIL_CONNECTIONS,
      seconds_per_round: SECONDS,
      rounds: ROUNDS,
      load_generator: 'autocannon, in its own process',
      load_average: { before: loadBefore.map(round2), after_rounds: loadAfterRounds.map(round2), after: loadavg().map(round2) },
      results,
      soak: soaked,
      ratios,
      goals: verdicts,
      node: process.version,
      measured_at: new Date().toISOString(),
    };
    const shown = { results, soak: soaked, ratios };
    if (ONLY === '') await writeBenchResult('http', result, shown);
    else console.log(JSON.stringify(shown, null, 2));
    console.log(`\nGoals (issue 27), against the one-round-trip floor:\n${printedGoals(verdicts)}`);
  } finally {
    for (const server of [gatehouse, unobserved, metered, traced, minimal, floor]) await server.stop();
  }
});
