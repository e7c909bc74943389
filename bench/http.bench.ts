// `npm run bench -- http`: the service against a minimal Koa + pg endpoint doing the same checks
// (bench/http/minimal-server.ts), both over HTTP, each server in a process of its own and
// autocannon in a third. A `bench` tenant with BENCH_ROWS posts (default 100,000); every target
// is measured in each of BENCH_ROUNDS interleaved rounds (default 3) of BENCH_SECONDS (default 5)
// at BENCH_CONNECTIONS connections (default 8); each figure reported is its own median over the rounds.
// Show is also measured on two more instances of the service, one with its Prometheus metrics on
// and one with metrics and OpenTelemetry traces on, for what observing the service costs.
// BENCH_ONLY=<text> measures only the targets whose name contains it (`BENCH_ONLY=show`), and
// prints its figures without replacing bench/results/http.json.
// Reports req/s, p50, p99 and the CPU milliseconds per request of the server's process and of
// PostgreSQL, and the machine's load average (1, 5, 15 minutes) before and after the rounds;
// writes bench/results/http.json.
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTokenKeyPair } from '../server/auth/token-keys.js';
import { DEMO_PASSWORD, seedDemo } from '../policies/seed.js';
import { withBenchDatabase } from './support/bench-database.js';
import { clusterCpu, cpuMsBetween } from './support/cluster-cpu.js';
import { generateLoad, type LoadResult } from './support/load-generator.js';
import { seedBenchTenant } from './support/seed-bench-tenant.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};
const ROWS = setting('BENCH_ROWS', 100_000);
const SECONDS = setting('BENCH_SECONDS', 5);
const ROUNDS = setting('BENCH_ROUNDS', 3);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 8);
const ONLY = process.env.BENCH_ONLY ?? '';
const PER_PAGE = 25;
/** The cursor page's depth: 50,000 rows in, or half the tenant when it is smaller. */
const DEPTH = Math.min(50_000, Math.floor(ROWS / 2 / PER_PAGE) * PER_PAGE);

const here = dirname(fileURLToPath(import.meta.url));
const resultsFile = join(here, 'results', 'http.json');

interface Target {
  name: string;
  server: ServerProcess;
  path: string;
  headers?: Record<string, string>;
}

interface Measured extends LoadResult {
  serverCpuMsPerRequest: number;
  postgresCpuMsPerRequest: number | null;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const median = <T>(values: T[], by: (value: T) => number) => [...values].sort((a, b) => by(a) - by(b))[Math.floor(values.length / 2)]!;

await withBenchDatabase(async (ownerUrl) => {
  await seedDemo(ownerUrl);
  console.log(`Seeding a tenant with ${ROWS} posts...`);
  const tenant = await seedBenchTenant(ownerUrl, ROWS);
  const { secretKey } = await generateTokenKeyPair();
  const env = { BENCH_OWNER_URL: ownerUrl, BENCH_SECRET_KEY: secretKey, BENCH_POOL: String(CONNECTIONS) };
  const gatehouseModule = join(here, 'http', 'gatehouse-server.ts');
  const gatehouse = await startServerProcess('gatehouse', gatehouseModule, env);
  const metered = await startServerProcess('gatehouse, metrics on', gatehouseModule, { ...env, BENCH_METRICS: '1' });
  const traced = await startServerProcess('gatehouse, metrics and tracing on', gatehouseModule, { ...env, BENCH_METRICS: '1', BENCH_TRACING: '1' });
  const minimal = await startServerProcess('minimal', join(here, 'http', 'minimal-server.ts'), env);
  const postgresCpu = await clusterCpu(ownerUrl);
  try {
    const login = await fetch(`${gatehouse.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@acme.test', password: DEMO_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const authorization = `Bearer ${token}`;
    const index = `/api/${tenant.slug}/posts?per_page=${PER_PAGE}`;
    const uncounted = { Prefer: 'count=none' };
    const deep = await fetch(`${gatehouse.url}${index}&page=${DEPTH / PER_PAGE}`, { headers: { authorization, ...uncounted } });
    const cursor = deep.headers.get('x-next-cursor');
    if (deep.status !== 200 || !cursor) throw new Error(`no cursor at depth ${DEPTH}: ${deep.status} ${await deep.text()}`);

    const show = `/api/${tenant.slug}/posts/${tenant.postId}`;
    const targets: Target[] = [
      { name: 'show: minimal', server: minimal, path: show },
      { name: 'show: gatehouse', server: gatehouse, path: show },
      { name: 'show: gatehouse, metrics on', server: metered, path: show },
      { name: 'show: gatehouse, metrics and tracing on', server: traced, path: show },
      { name: 'index exact: minimal', server: minimal, path: index },
      { name: 'index exact: gatehouse', server: gatehouse, path: index },
      { name: 'index planned: gatehouse', server: gatehouse, path: index, headers: { Prefer: 'count=planned' } },
      { name: 'index page 1, no count: gatehouse', server: gatehouse, path: index, headers: uncounted },
      { name: `index cursor at ${DEPTH}, no count: gatehouse`, server: gatehouse, path: `${index}&cursor=${encodeURIComponent(cursor)}`, headers: uncounted },
    ].filter((target) => target.name.includes(ONLY));
    const run = async (target: Target, seconds: number): Promise<Measured> => {
      const [cpuBefore, pgBefore] = [await target.server.cpuMicros(), await postgresCpu()];
      const load = await generateLoad({ url: `${target.server.url}${target.path}`, headers: { authorization, ...target.headers }, connections: CONNECTIONS, seconds });
      const [cpuAfter, pgAfter] = [await target.server.cpuMicros(), await postgresCpu()];
      return {
        ...load,
        serverCpuMsPerRequest: round2((cpuAfter - cpuBefore) / 1000 / load.requests),
        postgresCpuMsPerRequest: pgBefore === null || pgAfter === null ? null : round2(cpuMsBetween(pgBefore, pgAfter) / load.requests),
      };
    };

    // The machine may be shared: its load while the rounds ran says how far the rates can be trusted.
    const loadBefore = loadavg();
    console.log('Warming up...');
    for (const target of targets) await run(target, 1);
    const rounds = new Map<string, Measured[]>(targets.map((target) => [target.name, []]));
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const target of targets) {
        const measured = await run(target, SECONDS);
        rounds.get(target.name)!.push(measured);
        console.log(`round ${round}, ${target.name}: ${measured.requestsPerSecond} req/s, p99 ${measured.p99Ms} ms`);
      }
    }
    const results = Object.fromEntries(
      [...rounds].map(([name, measured]) => [
        name,
        {
          requestsPerSecond: median(measured, (m) => m.requestsPerSecond).requestsPerSecond,
          p50Ms: median(measured, (m) => m.p50Ms).p50Ms,
          p99Ms: median(measured, (m) => m.p99Ms).p99Ms,
          serverCpuMsPerRequest: median(measured, (m) => m.serverCpuMsPerRequest).serverCpuMsPerRequest,
          postgresCpuMsPerRequest: median(measured, (m) => m.postgresCpuMsPerRequest ?? 0).postgresCpuMsPerRequest,
          rounds: measured.map((m) => m.requestsPerSecond),
        },
      ]),
    );
    const compared: [string, string, string][] = [
      ['show: gatehouse / minimal (target >= 0.8)', 'show: gatehouse', 'show: minimal'],
      ['show: metrics on / off (target >= 0.95)', 'show: gatehouse, metrics on', 'show: gatehouse'],
      ['show: metrics and tracing on / off', 'show: gatehouse, metrics and tracing on', 'show: gatehouse'],
      ['index exact: gatehouse / minimal (target >= 0.9)', 'index exact: gatehouse', 'index exact: minimal'],
      ['index planned / index exact, gatehouse (target >= 4)', 'index planned: gatehouse', 'index exact: gatehouse'],
      [`cursor at ${DEPTH} / page 1, gatehouse (target >= 0.67, within 1.5x)`, `index cursor at ${DEPTH}, no count: gatehouse`, 'index page 1, no count: gatehouse'],
    ];
    // A ratio of two measured targets; BENCH_ONLY may have left either out.
    const ratios = Object.fromEntries(
      compared
        .filter(([, over, under]) => results[over] && results[under])
        .map(([name, over, under]) => [name, Math.round((results[over]!.requestsPerSecond / results[under]!.requestsPerSecond) * 100) / 100]),
    );
    const result = {
      benchmark: 'http',
      rows_in_tenant: ROWS,
      per_page: PER_PAGE,
      cursor_depth: DEPTH,
      connections: CONNECTIONS,
      seconds_per_round: SECONDS,
      rounds: ROUNDS,
      load_generator: 'autocannon, in its own process',
      load_average: { before: loadBefore.map(round2), after: loadavg().map(round2) },
      results,
      ratios,
      node: process.version,
      measured_at: new Date().toISOString(),
    };
    if (ONLY === '') {
      await mkdir(dirname(resultsFile), { recursive: true });
      await writeFile(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
    }
    console.log(JSON.stringify({ results, ratios }, null, 2));
  } finally {
    for (const server of [gatehouse, metered, traced, minimal]) await server.stop();
  }
});
