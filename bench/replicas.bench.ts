// `npm run bench -- replicas`: members' reads with 0, 1 and 2 read replicas. A primary and two
// hot standbys (streaming replication) on this machine; three `gatehouse serve` processes, one
// per setup, all on the primary; this process is the load generator. Rounds alternate the setups,
// each the same GET of 25 posts. On one machine the replicas share the cores with everything
// else, so the figure that matters is the primary's CPU per read going down, not the throughput.
// Writes bench/results/replicas.json.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { generateTokenKeyPair } from '../server/auth/token-keys.js';
import { provisionAppLogin } from '../server/db/logins/app-login.js';
import { roleUrl } from '../server/db/logins/role-url.js';
import { migrate } from '../server/db/migrations/migrations.js';
import { startEmbeddedCluster } from '../server/db/cluster/embedded-cluster.js';
import demo from '../policies/gatehouse.config.js';
import { seedDemo } from '../policies/seed.js';
import type { RunningCommand } from '../harness/cli.js';
import { startStreamingReplica, type StreamingReplica } from '../harness/streaming-replica.js';
import { clusterCpu, cpuMsBetween } from './support/cluster-cpu.js';
import { measureThroughput, type Throughput } from './support/measure-throughput.js';
import { demoToken, getOk, serveDemo } from './support/served-demo.js';
import { writeBenchResult } from './support/bench-result.js';

const CONCURRENCY = 16;
const ROUNDS = 3;
const SAMPLE = { requests: 1_500, concurrency: CONCURRENCY, warmup: 100 };
const SERVICE_ROLE = 'replicas_bench_service';
const SERVICE_PASSWORD = 'replicas-bench-service-password';
const SETUPS = [0, 1, 2] as const;

const PATH = '/api/acme/posts?per_page=25';

interface Round extends Throughput {
  /** CPU of the primary's processes (backends, WAL senders) per read. */
  primaryCpuMsPerRead: number;
}

const median = (rounds: Round[], key: keyof Round) => [...rounds].sort((a, b) => a[key] - b[key])[Math.floor(rounds.length / 2)]![key];

const folder = await mkdtemp(join(tmpdir(), 'gatehouse-replicas-bench-'));
await chmod(folder, 0o755);
const primaryData = join(folder, 'primary');
const primary = await startEmbeddedCluster({ dataDir: primaryData, persistent: false });
const standbys: StreamingReplica[] = [];
const instances: RunningCommand[] = [];
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
try {
  const ownerUrl = primary.url('postgres');
  await migrate(ownerUrl, { dir: demo.migrations });
  await seedDemo(ownerUrl);
  await provisionAppLogin(ownerUrl, SERVICE_ROLE, SERVICE_PASSWORD);
  const serviceUrl = roleUrl(ownerUrl, SERVICE_ROLE, SERVICE_PASSWORD);
  for (const name of ['standby_1', 'standby_2']) standbys.push(await startStreamingReplica(ownerUrl, primaryData, join(folder, name)));
  const secretKey = (await generateTokenKeyPair()).secretKey;
  const urls: string[] = [];
  for (const replicas of SETUPS) {
    const { instance, url } = await serveDemo({
      DATABASE_URL: ownerUrl,
      GATEHOUSE_APP_DATABASE_URL: serviceUrl,
      GATEHOUSE_REPLICA_URLS: standbys.slice(0, replicas).map((standby) => standby.via(serviceUrl)).join(','),
      GATEHOUSE_PASETO_SECRET_KEY: secretKey,
      GATEHOUSE_HOME: join(folder, `home-${replicas}`),
      GATEHOUSE_DB_POOL: '8',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    });
    instances.push(instance);
    urls.push(url);
  }
  const token = await demoToken(urls[0]!, 'owner@acme.test');
  const primaryCpu = await clusterCpu(ownerUrl);
  const rounds = new Map<number, Round[]>(SETUPS.map((replicas) => [replicas, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    console.log(`Round ${round + 1} of ${ROUNDS}...`);
    for (const [index, replicas] of SETUPS.entries()) {
      const before = await primaryCpu();
      const throughput = await measureThroughput(() => getOk(agent, `${urls[index]}${PATH}`, token), SAMPLE);
      const after = await primaryCpu();
      const cpu = before && after ? cpuMsBetween(before, after) : Number.NaN;
      rounds.get(replicas)!.push({ ...throughput, primaryCpuMsPerRead: Math.round((cpu / (SAMPLE.requests + SAMPLE.warmup)) * 1000) / 1000 });
    }
  }
  const summary = Object.fromEntries(
    SETUPS.map((replicas) => {
      const measured = rounds.get(replicas)!;
      return [
        `replicas_${replicas}`,
        {
          requestsPerSecond: median(measured, 'requestsPerSecond'),
          p50Ms: median(measured, 'p50Ms'),
          p99Ms: median(measured, 'p99Ms'),
          primaryCpuMsPerRead: median(measured, 'primaryCpuMsPerRead'),
        },
      ];
    }),
  );
  const result = {
    benchmark: 'replicas',
    request: `GET ${PATH} as owner@acme.test`,
    concurrency: CONCURRENCY,
    requests_per_round: SAMPLE.requests,
    rounds: ROUNDS,
    ...summary,
    node: process.version,
    measured_at: new Date().toISOString(),
  };
  await writeBenchResult('replicas', result);
} finally {
  agent.destroy();
  for (const instance of instances) {
    instance.child.kill('SIGTERM');
    await instance.exited;
  }
  for (const standby of standbys) await standby.stop();
  await primary.stop();
  await rm(folder, { recursive: true, force: true });
}
