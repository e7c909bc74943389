import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../server/db/cluster/embedded-cluster.js';

const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface PgBouncer {
  /** `url` with its host and port replaced by the pooler's. */
  via(url: string): string;
  /** Everything PgBouncer wrote to stderr so far: its log. */
  log(): string;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** Where PostgreSQL listens; every database is forwarded there. */
  server: { host: string; port: number };
  /** The logins the pooler accepts, with their passwords (it logs in to PostgreSQL as them too). */
  users: Record<string, string>;
  /** Server connections per database and user; default 10. */
  poolSize?: number;
}

const quoted = (value: string) => `"${value.replace(/"/g, '""')}"`;

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(() => resolve(true)));
    socket.on('error', () => resolve(false));
  });
}

/**
 * Debian's PgBouncer (`apt-get install pgbouncer`) in transaction mode on a free loopback port.
 * It refuses to run as root, so as root it drops to `nobody`. A missing binary is an error, never
 * a skip: `.ci/run` installs it.
 */
export async function startPgBouncer({ server, users, poolSize = 10 }: PgBouncerOptions): Promise<PgBouncer> {
  if (!existsSync(PGBOUNCER)) throw new Error(`${PGBOUNCER} is missing: apt-get install -y pgbouncer (.ci/run does).`);
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-pgbouncer-'));
  // `nobody` must read the configuration; the passwords are throwaway test logins.
  await chmod(dir, 0o755);
  const port = await freePort();
  const config = join(dir, 'pgbouncer.ini');
  const userlist = join(dir, 'userlist.txt');
  await writeFile(userlist, Object.entries(users).map(([user, password]) => `${quoted(user)} ${quoted(password)}\n`).join(''), { mode: 0o644 });
  await writeFile(
    config,
    [
      '[databases]',
      `* = host=${server.host} port=${server.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = scram-sha-256',
      `auth_file = ${userlist}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 500',
      `admin_users = ${Object.keys(users).join(', ')}`,
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'nobody'] : []), config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; !(await listening(port)); attempt += 1) {
    if (child.exitCode !== null || attempt > 100) {
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
      throw new Error(`PgBouncer did not start:\n${output}`);
    }
    await sleep(50);
  }
  return {
    via(url) {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(port);
      return through.toString();
    },
    log: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
