import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BenchSettingError } from './bench-setting.js';

/** The Node option that has V8 write /tmp/perf-<pid>.map, which names JIT-compiled frames for perf. */
export const PERF_NODE_OPTIONS = '--perf-basic-prof';

/** How often perf samples the process's threads, in Hz: a prime, so it does not beat with the event loop's timers. */
export const SAMPLING_HZ = 1999;

/**
 * Where a sample's CPU goes, by the innermost JavaScript frame on its stack (which includes the
 * builtins and runtime calls that frame made), matched by the frame's file in this order. A sample
 * in the kernel counts as the kernel's, and one with no JavaScript frame (garbage collection,
 * libuv, Node's C++) as outside JavaScript.
 */
const CATEGORIES: readonly { name: string; files: readonly string[] }[] = [
  { name: 'timestamps parsed', files: ['timestamp-text.', 'postgres-date'] },
  { name: "the server's own code", files: ['/server/', '/engine/'] },
  { name: "the floor's own code", files: ['/bench/'] },
  { name: 'Kysely', files: ['/kysely/'] },
  { name: 'the request log (pino)', files: ['/pino/', '/sonic-boom/'] },
  { name: 'pg: protocol, rows and their text', files: ['/pg/', '/pg-protocol/', '/pg-pool/', '/pg-types/', '/postgres-array/', 'node:buffer'] },
  { name: "Koa and Node's HTTP", files: ['/koa', '/@koa/', 'node:_http', 'node:http', '/delegates/', '/on-finished/', '/ee-first/', '/statuses/', '/mime-types/', '/vary/', '/parseurl/', '/type-is/', '/http-errors/'] },
  { name: "Node's streams, sockets, events and ticks", files: ['node:internal/streams', 'node:net', 'node:internal/stream_base', 'node:events', 'node:internal/process', 'node:timers', 'node:internal/timers'] },
  { name: 'crypto', files: ['node:internal/crypto', 'node:crypto'] },
];
const KERNEL = 'the kernel (sockets, scheduling)';
const OUTSIDE = 'outside JavaScript (GC, libuv, C++)';
const OTHER = 'other JavaScript';

/** Samples per category for `requests` requests. */
export interface PerfSamples {
  requests: number;
  total: number;
  byCategory: Record<string, number>;
}

function categoryOf(stack: readonly string[]): string {
  if (stack[0]!.includes('[kernel')) return KERNEL;
  const frame = stack.find((line) => line.includes(' JS:'));
  if (frame === undefined) return OUTSIDE;
  return CATEGORIES.find(({ files }) => files.some((file) => frame.includes(file)))?.name ?? OTHER;
}

/** `perf script`'s text: one block of frames per sample, innermost first, blocks apart by an empty line. */
export function attributedSamples(script: string, requests: number): PerfSamples {
  const byCategory: Record<string, number> = {};
  let total = 0;
  for (const block of script.split(/\n\s*\n/)) {
    const stack = block.split('\n').filter((line) => line.trim() !== '');
    if (stack.length === 0) continue;
    const category = categoryOf(stack);
    byCategory[category] = (byCategory[category] ?? 0) + 1;
    total += 1;
  }
  return { requests, total, byCategory };
}

const run = promisify(execFile);

/**
 * Records the CPU of process `pid` with perf while `load` runs, and attributes its samples. The
 * process must have been started with PERF_NODE_OPTIONS, so its JIT frames have names.
 */
export async function perfSamples(pid: number, requests: number, load: () => Promise<unknown>): Promise<PerfSamples> {
  const folder = await mkdtemp(join(tmpdir(), 'gatehouse-perf-'));
  const data = join(folder, 'perf.data');
  try {
    const recording = spawn('perf', ['record', '-F', String(SAMPLING_HZ), '-g', '-o', data, '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let refusal = '';
    recording.stderr.on('data', (chunk: Buffer) => (refusal += chunk.toString()));
    // Rejects when perf cannot be started at all (an 'error' event).
    const ended = once(recording, 'exit').catch((error: Error) => {
      throw new BenchSettingError(`BENCH_PERF=1 needs perf (Debian: linux-perf): ${error.message}`);
    });
    // perf attaches asynchronously; a request answered before it did would go unsampled.
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 1000)), ended]);
    if (recording.exitCode !== null) throw new BenchSettingError(`BENCH_PERF=1: perf could not record process ${pid}: ${refusal.trim()}`);
    await load();
    recording.kill('SIGINT');
    await ended;
    const { stdout } = await run('perf', ['script', '-F', 'ip,sym,dso', '-i', data], { maxBuffer: 1024 * 1024 * 1024 });
    return attributedSamples(stdout, requests);
  } finally {
    await rm(folder, { recursive: true, force: true });
    await rm(join(tmpdir(), `perf-${pid}.map`), { force: true });
  }
}

/** Samples per 10,000 requests: the unit of the table, whatever number of requests each recording took. */
const per10k = (samples: PerfSamples, count: number) => Math.round((count * 10_000) / samples.requests);

export interface PerfTable {
  /** Every sample of each process. */
  all: { gatehouse: number; floor: number };
  /** Per category, the largest share of the difference first. */
  rows: { category: string; gatehouse: number; floor: number; shareOfDifference: number }[];
}

/** Per category: samples per 10,000 requests of each process, and the category's share of the difference. */
export function perfTable(gatehouse: PerfSamples, floor: PerfSamples): PerfTable {
  const all = { gatehouse: per10k(gatehouse, gatehouse.total), floor: per10k(floor, floor.total) };
  const difference = all.gatehouse - all.floor;
  const categories = new Set([...Object.keys(gatehouse.byCategory), ...Object.keys(floor.byCategory)]);
  const rows = [...categories]
    .map((category) => {
      const [ours, theirs] = [per10k(gatehouse, gatehouse.byCategory[category] ?? 0), per10k(floor, floor.byCategory[category] ?? 0)];
      return { category, gatehouse: ours, floor: theirs, shareOfDifference: difference === 0 ? 0 : Math.round(((ours - theirs) / difference) * 100) };
    })
    .sort((a, b) => b.gatehouse - b.floor - (a.gatehouse - a.floor));
  return { all, rows };
}

/** The table as lines for a terminal. */
export function printedPerfTable(route: string, { all, rows }: PerfTable): string {
  const lines = rows.map(({ category, gatehouse, floor, shareOfDifference }) => `  ${category.padEnd(45)} ${String(gatehouse).padStart(7)} ${String(floor).padStart(7)} ${String(shareOfDifference).padStart(5)}%`);
  return `${route}, perf (all: ${all.gatehouse} against ${all.floor} samples per 10,000 requests); per category: gatehouse, floor, share of the difference:\n${lines.join('\n')}`;
}
