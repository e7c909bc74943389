import { readdir, readFile } from 'node:fs/promises';
import pg from 'pg';

const TICKS_PER_SECOND = 100;

/** A process's parent and CPU ticks so far, from /proc; null once it is gone. */
export async function processStat(pid: string): Promise<{ ppid: number; ticks: number } | null> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces; the fields after it are fixed.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/**
 * CPU time of PostgreSQL: the postmaster's children (backends and background workers), read from
 * /proc. A reading is per process, so the difference between two readings counts each process's
 * work in between (a process that ended in between is left out). Null where /proc cannot be read.
 */
export async function clusterCpu(ownerUrl: string): Promise<() => Promise<Map<string, number> | null>> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  let postmaster: number | undefined;
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // Read while the backend lives: once the client ends, its process (and its parent's pid) is gone.
    postmaster = (await processStat(String(rows[0]!.pid)))?.ppid;
  } finally {
    await client.end();
  }
  return async () => {
    if (postmaster === undefined) return null;
    const ticks = new Map<string, number>();
    for (const pid of await readdir('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const process = await processStat(pid);
      if (process?.ppid === postmaster) ticks.set(pid, process.ticks);
    }
    return ticks;
  };
}

/** Milliseconds of CPU between two readings of clusterCpu. */
export function cpuMsBetween(before: Map<string, number>, after: Map<string, number>): number {
  let ticks = 0;
  for (const [pid, now] of after) ticks += now - (before.get(pid) ?? 0);
  return (ticks / TICKS_PER_SECOND) * 1000;
}
