// `npm run bench -- scale`: throughput at one and two instances. Two `gatehouse serve` processes
// on one database behind PgBouncer (transaction mode) as the service login; this process is the
// load generator. Rounds alternate one instance (every request to the first) and two (requests
// alternate between them), each the same GET of 25 posts. Same machine, so a figure, not a target:
// two instances can only help as far as the cores the database and the pooler leave free.
// Writes bench/results/scale.json.
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTokenKeyPair } from '../server/auth/token-keys.js';
import { provisionAppLogin } from '../server/db/logins/app-login.js';
import { seedDemo } from '../policies/seed.js';
import { roleUrl } from '../server/db/logins/role-url.js';
import type { RunningCommand } from '../harness/cli.js';
import { startPgBouncer } from '../harness/pgbouncer.js';
import { withBenchDatabase } from './support/bench-database.js';
import { measureThroughput, type Throughput } from './support/measure-throughput.js';
import { demoToken, getOk, serveDemo } from './support/served-demo.js';
import { writeBenchResult } from './support/bench-result.js';

const CONCURRENCY = 16;
const ROUNDS = 3;
const SAMPLE = { requests: 2_000, concurrency: CONCURRENCY, warmup: 100 };
const POOL_PER_INSTANCE = 4;
const SERVICE_PASSWORD = 'scale-bench-service-password';
const SERVICE_ROLE = 'scale_bench_service';

/** CPU time (user + system) a process has used, in milliseconds, from /proc (100 ticks a second). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Round extends Throughput {
  /** CPU of the server processes (not of PgBouncer or PostgreSQL) per request. */
  serverCpuMsPerRequest: number;
}

async function measure(task: () => Promise<void>, pids: number[]): Promise<Round> {
  const before = await Promise.all(pids.map(cpuMs));
  const throughput = await measureThroughput(task, SAMPLE);
  const after = await Promise.all(pids.map(cpuMs));
  const cpu = after.reduce((sum, value, index) => sum + value - before[index]!, 0);
  return { ...throughput, serverCpuMsPerRequest: Math.round((cpu / (SAMPLE.requests + SAMPLE.warmup)) * 1000) / 1000 };
}

const median = (rounds: Round[]) => [...rounds].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(rounds.length / 2)]!;

await withBenchDatabase(async (ownerUrl) => {
  await seedDemo(ownerUrl);
  await provisionAppLogin(ownerUrl, SERVICE_ROLE, SERVICE_PASSWORD);
  const owner = new URL(ownerUrl);
  const bouncer = await startPgBouncer({ server: { host: owner.hostname, port: Number(owner.port) }, users: { [SERVICE_ROLE]: SERVICE_PASSWORD }, poolSize: 2 * POOL_PER_INSTANCE });
  const home = await mkdtemp(join(tmpdir(), 'gatehouse-scale-'));
  const instances: RunningCommand[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    const env = {
      DATABASE_URL: ownerUrl,
      GATEHOUSE_APP_DATABASE_URL: bouncer.via(roleUrl(ownerUrl, SERVICE_ROLE, SERVICE_PASSWORD)),
      GATEHOUSE_DB_PREPARED_STATEMENTS: 'false',
      GATEHOUSE_PASETO_SECRET_KEY: (await generateTokenKeyPair()).secretKey,
      GATEHOUSE_HOME: home,
      GATEHOUSE_DB_POOL: String(POOL_PER_INSTANCE),
      PORT: '0',
      HOST: '127.0.0.1',
      // Request logs are written, as in production; the pipe is drained by the watcher.
      LOG_LEVEL: 'info',
    };
    const urls: string[] = [];
    for (let index = 0; index < 2; index += 1) {
      const { instance, url } = await serveDemo(env);
      instances.push(instance);
      urls.push(url);
    }
    const token = await demoToken(urls[0]!, 'owner@acme.test');
    const path = '/api/acme/posts?per_page=25';
    let turn = 0;
    const pids = instances.map((instance) => instance.child.pid!);
    const sides = {
      one: () => getOk(agent, `${urls[0]}${path}`, token),
      two: () => getOk(agent, `${urls[turn++ % 2]}${path}`, token),
    };
    const rounds: Record<keyof typeof sides, Round[]> = { one: [], two: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      console.log(`Round ${round + 1} of ${ROUNDS}...`);
      rounds.one.push(await measure(sides.one, pids));
      rounds.two.push(await measure(sides.two, pids));
    }
    const [one, two] = [median(rounds.one), median(rounds.two)];
    const result = {
      benchmark: 'scale',
      request: `GET ${path}`,
      pooler: 'PgBouncer, pool_mode = transaction',
      pool_per_instance: POOL_PER_INSTANCE,
      concurrency: CONCURRENCY,
      requests_per_round: SAMPLE.requests,
      rounds: ROUNDS,
      one_instance: one,
      two_instances: two,
      ratio: Number((two.requestsPerSecond / one.requestsPerSecond).toFixed(3)),
      node: process.version,
      measured_at: new Date().toISOString(),
    };
    await writeBenchResult('scale', result);
    console.log(`one instance: ${one.requestsPerSecond} req/s; two instances: ${two.requestsPerSecond} req/s (${result.ratio}x).`);
  } finally {
    agent.destroy();
    for (const instance of instances) {
      instance.child.kill('SIGTERM');
      await instance.exited;
    }
    await bouncer.stop();
    await rm(home, { recursive: true, force: true });
  }
});
