// `npm run bench -- startup`: how fast the service starts and how much memory it holds. Over a
// database already migrated and seeded (the demo and a `bench` tenant), five ways of starting
// it, each in a process of its own: `gatehouse serve` as an operator runs it, from the packages
// packed and installed (the demo's config as JavaScript, then as TypeScript) and from the
// checkout; `npm start` (its web build, then `gatehouse start`, whose migrations and seed find
// nothing to do); and `createServer` in a bare Node process (bench/http/gatehouse-server.ts). For each, the time
// from starting the process to the first answered data request (a GET of one post, polled from
// the moment the process starts), and its RSS: just after that first answer, idle 2 s later, the
// most sampled under BENCH_SECONDS (default 10) of shows at BENCH_CONNECTIONS (default 8)
// connections, and after that load (of the server's own process: under `npm start`, npm's child).
// Each way is started once to warm up (the OS file cache, tsx's transform cache, the service
// login `gatehouse start` creates once), then BENCH_ROUNDS times
// (default 3), interleaved; each figure is its own median. Writes bench/results/startup.json.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ROOT, startCommand, type RunningCommand } from '../harness/cli.js';
import { DEMO_PASSWORD, seedDemo } from '../policies/seed.js';
import { generateTokenKeyPair } from '../server/auth/token-keys.js';
import { provisionAppLogin } from '../server/db/logins/app-login.js';
import { roleUrl } from '../server/db/logins/role-url.js';
import { withBenchDatabase } from './support/bench-database.js';
import { installGatehouse } from './support/installed-gatehouse.js';
import { generateLoad } from './support/load-generator.js';
import { processStat } from './support/cluster-cpu.js';
import { childRunning, peakRssDuring, rssMiB } from './support/process-memory.js';
import { seedBenchTenant } from './support/seed-bench-tenant.js';
import { startServerProcess } from './support/server-process.js';
import { benchSetting as setting } from './support/bench-setting.js';
import { writeBenchResult } from './support/bench-result.js';

const ROUNDS = setting('BENCH_ROUNDS', 3);
const SECONDS = setting('BENCH_SECONDS', 10);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 8);
const ROWS = 1_000;
const IDLE_MS = 2_000;
const POLL_MS = 5;
const READY_TIMEOUT_MS = 120_000;
const SERVICE_ROLE = 'startup_bench_service';
const SERVICE_PASSWORD = 'startup-bench-service-password';

const here = dirname(fileURLToPath(import.meta.url));
const DEMO_CONFIG = join(here, '..', 'policies', 'gatehouse.config.ts');
/** The CLI as a checkout runs it (`npx gatehouse`), not the tests' prebuilt copy. */
const GATEHOUSE = join(ROOT, 'server', 'bin', 'gatehouse.js');

/** A started service: its URL (known before it listens for the CLI's ways) and its server's process. */
interface Started {
  url: Promise<string>;
  /** Asked once the service answers. */
  serverPid(): Promise<number>;
  stop(): Promise<void>;
}

interface Round {
  firstAnswerMs: number;
  rssAfterFirstAnswerMiB: number;
  rssIdleMiB: number;
  rssPeakUnderLoadMiB: number;
  rssAfterLoadMiB: number;
  requestsPerSecondUnderLoad: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function freePort(): Promise<number> {
  const server = createNetServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** GETs url until it answers 200 (refused connections are retried: the server is not up yet). */
async function firstAnswer(url: string, headers: Record<string, string>): Promise<void> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  for (;;) {
    const status = await fetch(url, { headers }).then(
      async (response) => (await response.arrayBuffer(), response.status),
      () => null,
    );
    if (status === 200) return;
    if (status !== null) throw new Error(`GET ${url} answered ${status}`);
    if (performance.now() > deadline) throw new Error(`GET ${url}: no answer in ${READY_TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
}

console.log('Packing and installing the packages...');
const installed = await installGatehouse(DEMO_CONFIG);

await withBenchDatabase(async (ownerUrl) => {
  await seedDemo(ownerUrl);
  const tenant = await seedBenchTenant(ownerUrl, ROWS);
  await provisionAppLogin(ownerUrl, SERVICE_ROLE, SERVICE_PASSWORD);
  const { secretKey } = await generateTokenKeyPair();
  const home = await mkdtemp(join(tmpdir(), 'gatehouse-startup-'));
  const cliEnv = {
    DATABASE_URL: ownerUrl,
    GATEHOUSE_PASETO_SECRET_KEY: secretKey,
    GATEHOUSE_HOME: home,
    HOST: '127.0.0.1',
    // Request logs are written, as in production; the pipe is drained by the watcher.
    LOG_LEVEL: 'info',
  };
  const command = (run: (env: Record<string, string>) => RunningCommand, env: Record<string, string> = {}) => async (): Promise<Started> => {
    const port = await freePort();
    const running = run({ ...cliEnv, ...env, PORT: String(port) });
    const launched = running.child.pid!;
    // `npm start` runs the server as its child (its script `exec`s node); the CLI is the server itself.
    const serverPid = async () => (await childRunning(launched, 'gatehouse.js')) ?? launched;
    return {
      url: Promise.resolve(`http://127.0.0.1:${port}`),
      serverPid,
      async stop() {
        const server = await serverPid();
        // The whole group: npm and the server it started (gone already if the service failed).
        try {
          process.kill(-launched, 'SIGTERM');
        } catch {
          console.error(`the service had exited: ${JSON.stringify(running.output())}`);
        }
        await running.exited;
        while ((await processStat(String(server))) !== null) await sleep(50);
      },
    };
  };
  const inProcess = async (): Promise<Started> => {
    const server = startServerProcess('createServer', join(here, 'http', 'gatehouse-server.ts'), { BENCH_OWNER_URL: ownerUrl, BENCH_SECRET_KEY: secretKey, BENCH_POOL: String(CONNECTIONS) });
    return {
      url: server.then((started) => started.url),
      serverPid: async () => (await server).pid,
      stop: async () => (await server).stop(),
    };
  };
  const serve = (bin: string, config: string, cwd = ROOT) =>
    command((env) => startCommand(process.execPath, [bin, 'serve', '--config', config], env, { cwd, detached: true }), {
      GATEHOUSE_APP_DATABASE_URL: roleUrl(ownerUrl, SERVICE_ROLE, SERVICE_PASSWORD),
    });
  const ways: Record<string, () => Promise<Started>> = {
    'gatehouse serve, installed, .mjs config': serve(installed.bin, installed.jsConfig, dirname(installed.jsConfig)),
    'gatehouse serve, installed, .ts config': serve(installed.bin, installed.tsConfig, dirname(installed.tsConfig)),
    'gatehouse serve, checkout': serve(GATEHOUSE, DEMO_CONFIG),
    'npm start': command((env) => startCommand('npm', ['start'], env, { detached: true })),
    'createServer in a bare process': inProcess,
  };

  // A token for the data requests, from a session the demo owner opens once.
  const first = await inProcess();
  const login = await fetch(`${await first.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@acme.test', password: DEMO_PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  await first.stop();
  const headers = { authorization: `Bearer ${token}` };
  const show = `/api/${tenant.slug}/posts/${tenant.postId}`;

  const measure = async (start: () => Promise<Started>): Promise<Round> => {
    const began = performance.now();
    const started = await start();
    try {
      const url = `${await started.url}${show}`;
      await firstAnswer(url, headers);
      const firstAnswerMs = Math.round(performance.now() - began);
      const pid = await started.serverPid();
      const rssAfterFirstAnswerMiB = await rssMiB(pid);
      await sleep(IDLE_MS);
      const rssIdleMiB = await rssMiB(pid);
      const load = await peakRssDuring(pid, () => generateLoad({ url, headers, connections: CONNECTIONS, length: { seconds: SECONDS } }));
      return {
        firstAnswerMs,
        rssAfterFirstAnswerMiB,
        rssIdleMiB,
        rssPeakUnderLoadMiB: load.peakRssMiB,
        rssAfterLoadMiB: await rssMiB(pid),
        requestsPerSecondUnderLoad: load.result.requestsPerSecond,
      };
    } finally {
      await started.stop();
    }
  };

  try {
    const loadBefore = loadavg();
    console.log('Warming up...');
    for (const start of Object.values(ways)) await measure(start);
    const rounds = new Map<string, Round[]>(Object.keys(ways).map((name) => [name, []]));
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const [name, start] of Object.entries(ways)) {
        const measured = await measure(start);
        rounds.get(name)!.push(measured);
        console.log(`round ${round}, ${name}: first answer after ${measured.firstAnswerMs} ms, RSS idle ${measured.rssIdleMiB} MiB, under load up to ${measured.rssPeakUnderLoadMiB} MiB`);
      }
    }
    const results = Object.fromEntries(
      [...rounds].map(([name, measured]) => [
        name,
        {
          ...(Object.fromEntries(Object.keys(measured[0]!).map((figure) => [figure, median(measured.map((m) => m[figure as keyof Round]))])) as unknown as Round),
          firstAnswerMsRounds: measured.map((m) => m.firstAnswerMs),
        },
      ]),
    );
    const round2 = (value: number) => Math.round(value * 100) / 100;
    const result = {
      benchmark: 'startup',
      request: `GET ${show}`,
      connections_under_load: CONNECTIONS,
      seconds_under_load: SECONDS,
      idle_ms: IDLE_MS,
      rounds: ROUNDS,
      load_average: { before: loadBefore.map(round2), after: loadavg().map(round2) },
      results,
      node: process.version,
      measured_at: new Date().toISOString(),
    };
    await writeBenchResult('startup', result);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}).finally(() => rm(installed.folder, { recursive: true, force: true }));
