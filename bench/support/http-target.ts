import { benchSetting } from './bench-setting.js';
import { cpuMsBetween } from './cluster-cpu.js';
import { generateLoad, type LoadOptions, type LoadResult } from './load-generator.js';
import type { ServerProcess } from './server-process.js';

/** One URL of one benchmark server, loaded by autocannon in each round. */
export interface HttpTarget {
  name: string;
  server: ServerProcess;
  path: string;
  headers?: Record<string, string>;
  /** Default GET, without a body. */
  method?: string;
  body?: string;
  /** Default: the rounds' own. */
  connections?: number;
  /** Sent without the run's authorization. */
  anonymous?: boolean;
  /** The status every answer must have (a refusal's); default any 2xx. */
  status?: number;
}

export interface RoundLength {
  seconds: number;
  connections: number;
}

export interface Measured extends LoadResult {
  serverCpuMsPerRequest: number;
  postgresCpuMsPerRequest: number | null;
}

/** A target's figures over its rounds: each the median of its own. */
export interface MedianFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  serverCpuMsPerRequest: number;
  postgresCpuMsPerRequest: number | null;
  rounds: number[];
}

export const round2 = (value: number) => Math.round(value * 100) / 100;
// CPU in ms per request to the microsecond: a refusal or a trivial answer costs a few hundredths.
const round3 = (value: number) => Math.round(value * 1000) / 1000;
const median = <T>(values: T[], by: (value: T) => number) => [...values].sort((a, b) => by(a) - by(b))[Math.floor(values.length / 2)]!;

/** The target's requests, at its own connections or else `connections`, for `length`. */
const loadTarget = ({ server, path, headers, method, body, connections: own, anonymous, status }: HttpTarget, authorization: string, connections: number, length: LoadOptions['length']) =>
  generateLoad({ url: `${server.url}${path}`, headers: anonymous ? { ...headers } : { authorization, ...headers }, method, body, connections: own ?? connections, length, status });

/**
 * Loads the target for `seconds` and reads the CPU the server's process and PostgreSQL (a reading
 * of clusterCpu; null where /proc cannot be read) spent meanwhile, per request.
 */
export async function measureTarget(
  target: HttpTarget,
  { seconds, connections }: RoundLength,
  authorization: string,
  postgresCpu: () => Promise<Map<string, number> | null>,
): Promise<Measured> {
  const [cpuBefore, pgBefore] = [await target.server.cpuMicros(), await postgresCpu()];
  const load = await loadTarget(target, authorization, connections, { seconds });
  const [cpuAfter, pgAfter] = [await target.server.cpuMicros(), await postgresCpu()];
  return {
    ...load,
    serverCpuMsPerRequest: round3((cpuAfter - cpuBefore) / 1000 / load.requests),
    postgresCpuMsPerRequest: pgBefore === null || pgAfter === null ? null : round3(cpuMsBetween(pgBefore, pgAfter) / load.requests),
  };
}

export function medianFigures(measured: Measured[]): MedianFigures {
  return {
    requestsPerSecond: median(measured, (m) => m.requestsPerSecond).requestsPerSecond,
    p50Ms: median(measured, (m) => m.p50Ms).p50Ms,
    p99Ms: median(measured, (m) => m.p99Ms).p99Ms,
    serverCpuMsPerRequest: median(measured, (m) => m.serverCpuMsPerRequest).serverCpuMsPerRequest,
    postgresCpuMsPerRequest: median(measured, (m) => m.postgresCpuMsPerRequest ?? 0).postgresCpuMsPerRequest,
    rounds: measured.map((m) => m.requestsPerSecond),
  };
}

/**
 * Every target measured in each of `rounds` interleaved rounds of `seconds` at `connections`
 * (unless the target names its own), so a machine busy for a while slows every target alike; the
 * medians per target. First each target answers BENCH_WARMUP_REQUESTS (default 4,000): a count,
 * not a time, so a server whose code V8 has yet to optimize (its compiler's CPU counts as the
 * process's) is as warm on a busy machine as on a quiet one. After 1,000, a target's first round
 * still ran slower than its others.
 */
export async function interleavedRounds(
  targets: HttpTarget[],
  { rounds, ...length }: RoundLength & { rounds: number },
  authorization: string,
  postgresCpu: () => Promise<Map<string, number> | null>,
): Promise<Record<string, MedianFigures>> {
  const warmup = benchSetting('BENCH_WARMUP_REQUESTS', 4000);
  console.log(`Warming up: ${warmup} requests to each target...`);
  for (const target of targets) await loadTarget(target, authorization, length.connections, { requests: warmup });
  const measured = new Map<string, Measured[]>(targets.map((target) => [target.name, []]));
  for (let round = 1; round <= rounds; round += 1) {
    // Each round starts one target further on, so no target always follows the same neighbour.
    const shift = (round - 1) % targets.length;
    for (const target of [...targets.slice(shift), ...targets.slice(0, shift)]) {
      const result = await measureTarget(target, length, authorization, postgresCpu);
      measured.get(target.name)!.push(result);
      console.log(`round ${round}, ${target.name}: ${result.requestsPerSecond} req/s, p99 ${result.p99Ms} ms, server CPU ${result.serverCpuMsPerRequest} ms/req`);
    }
  }
  return Object.fromEntries([...measured].map(([name, results]) => [name, medianFigures(results)]));
}
