import { performance } from 'node:perf_hooks';

export interface Throughput {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

const percentile = (sorted: number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;

/**
 * Runs `task` `requests` times with `concurrency` in flight, after a warm-up, and reports the
 * rate and the latency percentiles of the measured calls.
 */
export async function measureThroughput(task: () => Promise<void>, { requests, concurrency, warmup }: { requests: number; concurrency: number; warmup: number }): Promise<Throughput> {
  for (let index = 0; index < warmup; index += 1) await task();
  const latencies: number[] = [];
  let started = 0;
  const worker = async () => {
    while (started < requests) {
      started += 1;
      const begin = performance.now();
      await task();
      latencies.push(performance.now() - begin);
    }
  };
  const begin = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - begin) / 1000;
  latencies.sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 100) / 100;
  return { requests, requestsPerSecond: Math.round(requests / seconds), p50Ms: round(percentile(latencies, 0.5)), p99Ms: round(percentile(latencies, 0.99)) };
}
