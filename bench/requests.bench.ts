// `npm run bench -- requests`: the requests beside the reads, so a change to the read path shows
// whether it slowed them: a write (create a post, update a post), explain (POST {t}/explain) and
// authorize (POST {t}/authorize with four checks and a plan), each as the demo owner of the
// `bench` tenant (BENCH_ROWS posts, default 100,000). BENCH_BASELINE=<directory> serves the same
// requests from another checkout (its bench/http/gatehouse-server.ts) in the same run, and the
// goals compare the two: this checkout keeps the baseline's figures. The targets run in
// BENCH_ROUNDS interleaved rounds (default 3) of BENCH_SECONDS (default 3) at BENCH_CONNECTIONS
// (default 8), each figure the median of its rounds, as in `npm run bench -- node-cpu`. Every
// update changes the same post, so its row lock orders the updates: a figure to compare, not a
// capacity. Refusals that need no database (an unknown route's 404, a 401 without a token and
// with a malformed one) are measured beside `/api/health`, the cheapest answer the server gives:
// one tenant's flood of refusals costs its neighbours on the same process, so a refusal's CPU
// should stay near a trivial answer's. Writes bench/results/requests.json.
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBenchDatabase } from './support/bench-database.js';
import { writeBenchResult } from './support/bench-result.js';
import { seededBenchServersEnv } from './support/bench-servers-env.js';
import { benchSetting as setting } from './support/bench-setting.js';
import { clusterCpu } from './support/cluster-cpu.js';
import { printedGoals, verdictOf, type Goal } from './support/goals.js';
import { interleavedRounds, round2, type HttpTarget, type MedianFigures } from './support/http-target.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { ownerAuthorization } from './support/sign-in.js';

const ROWS = setting('BENCH_ROWS', 100_000);
const SECONDS = setting('BENCH_SECONDS', 3);
const ROUNDS = setting('BENCH_ROUNDS', 3);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 8);
const BASELINE = process.env.BENCH_BASELINE ? resolve(process.env.BENCH_BASELINE) : null;
/** Within the noise of a shared machine, and no further: the CPU per request is the steadier figure. */
const KEPT = { serverCpu: 1.1, requestsPerSecond: 0.9 };
/** A refusal's server CPU per request, at most this many times `/api/health`'s. */
const REFUSAL_OVER_TRIVIAL = 1.5;

const here = dirname(fileURLToPath(import.meta.url));
const SERVERS = { gatehouse: 'gatehouse', baseline: 'gatehouse, baseline' } as const;
type ServerName = (typeof SERVERS)[keyof typeof SERVERS];

await withBenchDatabase(async (ownerUrl) => {
  const { tenant, env } = await seededBenchServersEnv(ownerUrl, ROWS, CONNECTIONS);
  const servers = new Map<ServerName, ServerProcess>([[SERVERS.gatehouse, await startServerProcess(SERVERS.gatehouse, join(here, 'http', 'gatehouse-server.ts'), env)]]);
  if (BASELINE) servers.set(SERVERS.baseline, await startServerProcess(SERVERS.baseline, join(BASELINE, 'bench', 'http', 'gatehouse-server.ts'), env));
  const postgresCpu = await clusterCpu(ownerUrl);
  const authorization = await ownerAuthorization(servers.get(SERVERS.gatehouse)!.url);
  const tenantPath = `/api/${tenant.slug}`;
  const post = `${tenantPath}/posts/${tenant.postId}`;
  const json = (method: string, path: string, body: unknown) => ({ method, path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const requests = {
    create: json('POST', `${tenantPath}/posts`, { title: 'Written by the benchmark', body: 'A post', status: 'draft' }),
    update: json('PATCH', post, { title: 'Updated by the benchmark' }),
    explain: json('POST', `${tenantPath}/explain`, { model: 'posts', action: 'update', id: tenant.postId, fields: ['title'] }),
    authorize: json('POST', `${tenantPath}/authorize`, {
      checks: [
        { model: 'posts', action: 'show', id: tenant.postId },
        { model: 'posts', action: 'update', id: tenant.postId, fields: { write: ['title'] } },
        { model: 'posts', action: 'destroy', id: tenant.postId },
        { model: 'comments', action: 'index' },
      ],
      plans: [{ model: 'posts', action: 'update' }],
    }),
  };
  const trivial = { health: { path: '/api/health', anonymous: true } };
  const refusals = {
    'unknown route': { path: '/no/such/route', anonymous: true, status: 404 },
    'no token': { path: post, anonymous: true, status: 401 },
    'malformed token': { path: post, headers: { authorization: 'Bearer not-a-token' }, status: 401 },
  };
  const measuredRequests = { ...requests, ...trivial, ...refusals };
  const targetName = (request: string, server: ServerName) => `${request}: ${server}`;
  const loadBefore = loadavg();
  let results: Record<string, MedianFigures>;
  try {
    const targets: HttpTarget[] = [...servers].flatMap(([name, server]) => Object.entries(measuredRequests).map(([request, target]) => ({ name: targetName(request, name), server, ...target })));
    results = await interleavedRounds(targets, { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS }, authorization, postgresCpu);
  } finally {
    for (const server of servers.values()) await server.stop();
  }
  const ratio = (request: string, name: 'requestsPerSecond' | 'serverCpuMsPerRequest') => {
    const [now, before] = [results[targetName(request, SERVERS.gatehouse)]?.[name], results[targetName(request, SERVERS.baseline)]?.[name]];
    return now === undefined || before === undefined ? null : round2(now / before);
  };
  const overTrivial = (request: string) => {
    const cpu = (name: string) => results[targetName(name, SERVERS.gatehouse)]!.serverCpuMsPerRequest;
    return round2(cpu(request) / cpu('health'));
  };
  const goals: Goal[] = [
    ...Object.keys(measuredRequests).flatMap((request): Goal[] => [
      { name: `${request} server CPU per request, gatehouse / baseline`, bound: 'at most', target: KEPT.serverCpu, measured: ratio(request, 'serverCpuMsPerRequest') },
      { name: `${request} req/s, gatehouse / baseline`, bound: 'at least', target: KEPT.requestsPerSecond, measured: ratio(request, 'requestsPerSecond') },
    ]),
    ...Object.keys(refusals).map((refusal): Goal => ({ name: `${refusal} server CPU per request / health's`, bound: 'at most', target: REFUSAL_OVER_TRIVIAL, measured: overTrivial(refusal) })),
  ];
  const verdicts = Object.fromEntries(goals.map((goal) => [goal.name, verdictOf(goal)]));
  const result = {
    benchmark: 'requests',
    rows_in_tenant: ROWS,
    connections: CONNECTIONS,
    seconds_per_round: SECONDS,
    rounds: ROUNDS,
    baseline: BASELINE,
    requests: Object.fromEntries(Object.entries(requests).map(([request, { method, path, body }]) => [request, { method, path, body: JSON.parse(body) as unknown }])),
    refusals: { ...trivial, ...refusals },
    load_generator: 'autocannon, in its own process',
    load_average: { before: loadBefore.map(round2), after: loadavg().map(round2) },
    results,
    goals: verdicts,
    node: process.version,
    measured_at: new Date().toISOString(),
  };
  await writeBenchResult('requests', result, results);
  console.log(`\nGoals, one run, against the baseline (none without BENCH_BASELINE):\n${printedGoals(verdicts)}`);
});
