import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user (the `postgres` user under root).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The port of the PostgreSQL server that currently owns dataDir, read from its postmaster.pid
 * (first line the process id, fourth the port), or null when none runs there.
 */
export async function runningPostmasterPort(dataDir: string): Promise<number | null> {
  let lines: string[];
  try {
    lines = (await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return Number.isInteger(pid) && pid > 0 && Number.isInteger(port) && port > 0 && isAlive(pid) ? port : null;
}
