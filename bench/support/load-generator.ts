import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  /** For how long, or how many requests in all. */
  length: { seconds: number } | { requests: number };
}

const autocannon = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

interface AutocannonResult {
  /** Seconds the run took. */
  duration: number;
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

/**
 * Runs autocannon in a process of its own against one URL, so the load generator's CPU is never
 * the server's. Any answer but a 2xx fails the benchmark: a fast error is not a result.
 */
export async function generateLoad({ url, headers, connections, length }: LoadOptions): Promise<LoadResult> {
  const [flag, value] = 'seconds' in length ? ['--duration', length.seconds] : ['--amount', length.requests];
  const args = [autocannon, '--json', '--connections', String(connections), flag, String(value)];
  for (const [name, value] of Object.entries(headers)) args.push('--headers', `${name}: ${value}`);
  args.push(url);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${String(code)}: ${stderr}`);
  const result = JSON.parse(stdout) as AutocannonResult;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`GET ${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.total / ('seconds' in length ? length.seconds : result.duration)),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}
