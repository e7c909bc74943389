import { spawn, execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from '../server/db/cluster/embedded-cluster.js';

// Debian's pg_auto_failover (`apt-get install postgresql-15-auto-failover pg-auto-failover-cli`,
// as .ci/run does) and the PostgreSQL 15 it runs.
const PG_AUTOCTL = '/usr/bin/pg_autoctl';
const PG_BIN = '/usr/lib/postgresql/15/bin';

export interface FormationNode {
  name: string;
  port: number;
  /** The superuser's connection string of this node alone. */
  url: string;
}

export interface Formation {
  /** Both nodes in one libpq-style connection string, as `pg_autoctl show uri` prints it. */
  readonly uri: string;
  readonly nodes: readonly FormationNode[];
  /** The node the monitor has assigned the primary role. */
  primary(): Promise<FormationNode>;
  /** SIGKILL to a node's keeper and its postmaster: the machine is gone, nothing restarts it. */
  kill(node: FormationNode): Promise<void>;
  stop(): Promise<void>;
}

const run = promisify(execFile);

/** pg_autoctl refuses root; as root it runs as `postgres`, who must reach `folder`. */
function serverUser(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  return { uid: Number(execFileSync('id', ['-u', 'postgres'])), gid: Number(execFileSync('id', ['-g', 'postgres'])) };
}

/**
 * A pg_auto_failover formation on this machine: a monitor and two PostgreSQL nodes, the second a
 * synchronous standby of the first, with health checks shortened so a failover takes seconds.
 * pg_auto_failover decides and promotes; nothing here does.
 */
export async function startFormation(folder: string): Promise<Formation> {
  if (!existsSync(PG_AUTOCTL)) throw new Error(`${PG_AUTOCTL} is missing: apt-get install -y postgresql-15-auto-failover pg-auto-failover-cli (.ci/run does).`);
  const user = serverUser();
  if ('uid' in user) execFileSync('chown', [`${user.uid}:${user.gid}`, folder]);
  const env = {
    PATH: `${PG_BIN}:/usr/bin:/bin`,
    HOME: folder,
    XDG_CONFIG_HOME: join(folder, 'config'),
    XDG_DATA_HOME: join(folder, 'data'),
    XDG_RUNTIME_DIR: join(folder, 'run'),
    PG_CONFIG: join(PG_BIN, 'pg_config'),
  };
  const processes: ChildProcess[] = [];
  const autoctl = (args: string[]) => run(PG_AUTOCTL, args, { ...user, env });
  // Each in a process group of its own, with the PostgreSQL it starts: killing the group is losing the machine.
  const keep = (name: string, args: string[]) => {
    const log = openSync(join(folder, `${name}.log`), 'a');
    const child = spawn(PG_AUTOCTL, args, { ...user, env, stdio: ['ignore', log, log], detached: true });
    closeSync(log);
    processes.push(child);
    return child;
  };
  const monitorPort = await freePort();
  const monitorData = join(folder, 'monitor');
  keep('monitor', ['create', 'monitor', '--pgdata', monitorData, '--pgport', String(monitorPort), '--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl', '--run']);
  const monitorUrl = `postgres://postgres@127.0.0.1:${monitorPort}/pg_auto_failover`;
  await until(async () => (await rows(monitorUrl, "SELECT 1 FROM pg_extension WHERE extname = 'pgautofailover'")).length === 1);
  // The defaults take about 30 s to call a node unhealthy, and 30 s more before the promoted
  // standby takes writes while the old primary cannot confirm it stopped; a test waits a few.
  for (const [setting, value] of [
    ['health_check_period', 1000],
    ['health_check_retry_delay', 500],
    ['health_check_timeout', 1000],
    ['node_considered_unhealthy_timeout', 3000],
    ['primary_demote_timeout', 3000],
  ] as const) {
    await rows(monitorUrl, `ALTER SYSTEM SET pgautofailover.${setting} = ${value}`);
  }
  await rows(monitorUrl, 'SELECT pg_reload_conf()');
  const nodes: (FormationNode & { data: string; keeper: ChildProcess })[] = [];
  for (const name of ['node_1', 'node_2']) {
    const port = await freePort();
    const data = join(folder, name);
    const keeper = keep(name, ['create', 'postgres', '--pgdata', data, '--pgport', String(port), '--hostname', '127.0.0.1', '--name', name, '--auth', 'trust', '--no-ssl', '--monitor', `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`, '--run']);
    nodes.push({ name, port, url: `postgres://postgres@127.0.0.1:${port}/postgres`, data, keeper });
    // One node at a time: the first becomes the primary, the second its standby.
    await until(async () => (await states(monitorUrl)).some((state) => state.nodename === name && state.reportedstate === (name === 'node_1' ? 'single' : 'secondary')));
  }
  await until(async () => (await states(monitorUrl)).filter((state) => ['primary', 'secondary'].includes(state.reportedstate)).length === 2);
  const { stdout } = await autoctl(['show', 'uri', '--pgdata', monitorData, '--formation', 'default']);
  return {
    // The nodes run without TLS (`--no-ssl`), which the printed `sslmode=prefer` would still try.
    uri: stdout.trim().replace(/^postgres:\/\//, 'postgres://postgres@').replace('sslmode=prefer', 'sslmode=disable'),
    nodes,
    async primary() {
      const primary = (await states(monitorUrl)).find((state) => state.goalstate === 'primary' || state.goalstate === 'wait_primary');
      const node = nodes.find(({ name }) => name === primary?.nodename);
      if (!node) throw new Error('the formation has no primary');
      return node;
    },
    async kill(node) {
      const { keeper, data } = nodes.find(({ name }) => name === node.name)!;
      const postmaster = Number((await readFile(join(data, 'postmaster.pid'), 'utf8')).split('\n')[0]);
      signalGroup(keeper, 'SIGKILL');
      // In case PostgreSQL left the keeper's group for a session of its own.
      try {
        process.kill(postmaster, 'SIGKILL');
      } catch {
        // Gone with the group.
      }
    },
    async stop() {
      for (const child of processes.reverse()) signalGroup(child, 'SIGTERM');
      await Promise.all(processes.map((child) => (running(child) ? new Promise((resolve) => child.once('exit', resolve)) : null)));
      await rm(folder, { recursive: true, force: true });
    },
  };
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // Gone already.
  }
}

interface NodeState {
  nodename: string;
  reportedstate: string;
  goalstate: string;
}

function states(monitorUrl: string): Promise<NodeState[]> {
  return rows(monitorUrl, 'SELECT nodename, reportedstate::text, goalstate::text FROM pgautofailover.node') as Promise<NodeState[]>;
}

async function rows(url: string, text: string): Promise<pg.QueryResultRow[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.query(text)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

async function until(condition: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error('the formation did not reach its state in time');
    await sleep(250);
  }
}
