import { readdir, readFile } from 'node:fs/promises';
import { processStat } from './cluster-cpu.js';

/** A process's resident set size in MiB, read from /proc (Linux), as `ps` and a container's limit count it. */
export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Math.round((Number(kib) / 1024) * 10) / 10;
}

/**
 * The largest RSS of a process while `work` runs, sampled every `everyMs`, with work's result.
 * A sample may miss a short peak: it says what the process holds under load, not its maximum.
 */
export async function peakRssDuring<T>(pid: number, work: () => Promise<T>, everyMs = 200): Promise<{ result: T; peakRssMiB: number }> {
  let peak = await rssMiB(pid);
  const sampler = setInterval(() => {
    void rssMiB(pid).then((rss) => (peak = Math.max(peak, rss)), () => {});
  }, everyMs);
  try {
    const result = await work();
    peak = Math.max(peak, await rssMiB(pid));
    return { result, peakRssMiB: peak };
  } finally {
    clearInterval(sampler);
  }
}

/** The process started by `parent` whose command line contains `command` (a server a script runs), if any. */
export async function childRunning(parent: number, command: string): Promise<number | undefined> {
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid) || (await processStat(pid))?.ppid !== parent) continue;
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes(command)) return Number(pid);
  }
  return undefined;
}
