import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { BenchSettingError } from './bench-setting.js';

/** Where BENCH_PIN=1 runs the servers measured; everything else (PostgreSQL, autocannon, the runner) runs on LOAD_CPU. */
const SERVER_CPU = 1;
const LOAD_CPU = 0;

/** Moves every thread of the process to `cpu`; threads it starts later follow the one that starts them. */
function pin(pid: number, cpu: number): void {
  try {
    execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', String(cpu), String(pid)], { stdio: 'ignore' });
  } catch {
    throw new BenchSettingError(`BENCH_PIN=1 needs taskset (util-linux) and permission to set process ${pid}'s CPU affinity`);
  }
}

/**
 * BENCH_PIN=1: each server measured gets a core of its own, and PostgreSQL and the load generator
 * share the other. On two shared cores the servers' CPU per request otherwise includes waiting
 * for a core and the wake-ups of a busier peer, which vary from round to round by more than the
 * changes a before/after measures. Unset, nothing is pinned.
 */
export function cpuPinning(): { serverStarted(pid: number): void } | null {
  if (process.env.BENCH_PIN !== '1') return null;
  if (availableParallelism() < 2) throw new BenchSettingError('BENCH_PIN=1 needs at least two CPUs');
  // Before the database and any server start: they inherit it, and servers are moved on from there.
  pin(process.pid, LOAD_CPU);
  return { serverStarted: (pid) => pin(pid, SERVER_CPU) };
}
