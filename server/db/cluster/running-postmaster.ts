import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether process `pid` exists. */
export function isAlive(pid: number): boolean {
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

const STOP_POLL_MS = 100;

/**
 * Stops the PostgreSQL server that owns dataDir, started by another process: SIGINT is its fast
 * shutdown (sessions are ended, nothing is lost). Resolves once it has removed its postmaster.pid.
 */
export async function stopPostmaster(dataDir: string): Promise<void> {
  const pid = Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  while ((await runningPostmasterPort(dataDir)) !== null) await sleep(STOP_POLL_MS);
}
