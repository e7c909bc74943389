import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { isAlive } from './running-postmaster.js';

/** How long a process waits for another to finish starting or stopping the cluster (initdb included). */
const LOCK_WAIT_MS = 120_000;
const LOCK_RETRY_MS = 100;

/**
 * The processes using a folder's embedded cluster, one file each beside its data (named by the
 * process id and a random part: one process may open it twice), so that the last one to leave
 * stops it, whichever started it. Joining, starting, leaving and stopping happen under one lock
 * per cluster: a process never joins a cluster that is being stopped.
 */
export class ClusterUsers {
  private readonly folder: string;

  constructor(private readonly dataDir: string) {
    this.folder = `${dataDir}.users`;
  }

  /** Runs `work` holding the cluster's lock (released even when work fails; one held by a dead process goes stale). */
  async locked<T>(work: () => Promise<T>): Promise<T> {
    const release = await lockfile.lock(this.dataDir, {
      lockfilePath: `${this.dataDir}.lock`,
      realpath: false,
      retries: { retries: LOCK_WAIT_MS / LOCK_RETRY_MS, factor: 1, minTimeout: LOCK_RETRY_MS, maxTimeout: LOCK_RETRY_MS },
    });
    try {
      return await work();
    } finally {
      await release();
    }
  }

  /** Counts this process in; returns what leave() takes. */
  async join(): Promise<string> {
    await mkdir(this.folder, { recursive: true });
    const user = `${process.pid}-${randomUUID()}`;
    await writeFile(join(this.folder, user), '');
    return user;
  }

  /** Counts `user` out; true when another live process still uses the cluster (the files of dead ones are removed). */
  async leave(user: string): Promise<boolean> {
    await rm(join(this.folder, user), { force: true });
    let others = false;
    for (const name of await readdir(this.folder).catch(() => [])) {
      if (isAlive(Number(name.split('-')[0]))) others = true;
      else await rm(join(this.folder, name), { force: true });
    }
    return others;
  }
}
