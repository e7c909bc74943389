import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** A load whose answers are counted rather than required to succeed. */
export interface CountedLoadResult extends LoadResult {
  /** Answers by status. */
  statuses: Record<string, number>;
  /** Answers that were not 2xx, connection errors and timeouts. */
  failures: number;
  /** Connection errors and timeouts alone. */
  errors: number;
  /** Requests sent but not answered when the run ended (at most one per connection in a run that keeps up). */
  unanswered: number;
}

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  /** For how long, or how many requests in all. */
  length: { seconds: number } | { requests: number };
  /** Default GET. */
  method?: string;
  /** Sent with every request, as it is. */
  body?: string;
  /** The status every answer must have, for generateLoad; default any 2xx. */
  status?: number;
}

const autocannon = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

interface AutocannonResult {
  /** Seconds the run took. */
  duration: number;
  requests: { average: number; total: number; sent: number };
  latency: { p50: number; p99: number };
  statusCodeStats: Record<string, { count: number }>;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/**
 * Runs autocannon in a process of its own against one URL, so the load generator's CPU is never
 * the server's. Any answer but a 2xx (or the status asked for) fails the benchmark: a fast error
 * is not a result.
 */
export async function generateLoad(options: LoadOptions): Promise<LoadResult> {
  const { failures, errors, statuses, unanswered: _unanswered, ...result } = await countedLoad(options);
  const { status } = options;
  const unexpected = status === undefined ? failures : errors + result.requests - (statuses[status] ?? 0);
  if (unexpected > 0) throw new Error(`${options.method ?? 'GET'} ${options.url}: ${unexpected} answers were not ${status ?? '2xx'}, or failed (answers by status: ${JSON.stringify(statuses)})`);
  return result;
}

/** Runs autocannon as generateLoad does, counting the answers by status instead of failing on one. */
export async function countedLoad({ url, headers, connections, length, method = 'GET', body }: LoadOptions): Promise<CountedLoadResult> {
  const [flag, value] = 'seconds' in length ? ['--duration', length.seconds] : ['--amount', length.requests];
  const args = [autocannon, '--json', '--connections', String(connections), '--method', method, flag, String(value)];
  for (const [name, value] of Object.entries(headers)) args.push('--headers', `${name}: ${value}`);
  if (body !== undefined) args.push('--body', body);
  args.push(url);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${String(code)}: ${stderr}`);
  const result = JSON.parse(stdout) as AutocannonResult;
  return {
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count])),
    failures: result.non2xx + result.errors + result.timeouts,
    errors: result.errors + result.timeouts,
    unanswered: Math.max(0, result.requests.sent - result.requests.total),
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.total / ('seconds' in length ? length.seconds : result.duration)),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}
