import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../server/db/cluster/embedded-cluster.js';
import { runCli, startCommand } from '../../../../harness/cli.js';
import { descendants, isListening, isRunning } from '../../../support/processes.js';
import { clusterFolder } from '../../../support/cluster-folder.js';

/** `pid: command line`, to name what was left running. */
function commandOf(pid: number): string {
  try {
    return `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`;
  } catch {
    return `${pid}`;
  }
}

// `npm start` exactly as a user runs it, on a fresh embedded cluster of its own (no
// DATABASE_URL), then SIGTERM to the npm process alone, as a container runtime sends it.
let home: string;

beforeAll(async () => {
  home = await clusterFolder('start');
});

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('npm start, then SIGTERM to npm', { timeout: 180_000 }, () => {
  it('serves, prints the database URL masked, and leaves no process and no listening port behind', async () => {
    const port = await freePort();
    // The folder's first start: the npx tests below may have made the key already.
    await rm(join(home, 'paseto-secret.paserk'), { force: true });
    const env = { DATABASE_URL: '', GATEHOUSE_HOME: home, PORT: String(port), GATEHOUSE_PASETO_SECRET_KEY: '' };
    const npm = startCommand('npm', ['start', '--silent'], env);
    let children: number[] = [];
    let databasePort = 0;
    try {
      const stdout = await npm.waitFor(/^Gatehouse demo on /m, 110_000);
      expect(stdout).toContain(`Generated a development signing key in ${join(home, 'paseto-secret.paserk')}`);
      expect((await fetch(`http://127.0.0.1:${port}/api/ready`)).status).toBe(200);

      const masked = new URL(/^Database: (\S+)/m.exec(stdout)?.[1] ?? '');
      expect(masked.password).toBe('****');
      const whole = await runCli(['db', 'url'], '', { GATEHOUSE_HOME: home });
      expect(whole.code).toBe(0);
      const url = new URL(whole.stdout.trim());
      expect(url.password).not.toBe('');
      expect([url.host, url.pathname]).toEqual([masked.host, masked.pathname]);
      databasePort = Number(url.port);
      expect(await isListening(databasePort)).toBe(true);

      children = descendants(npm.child.pid!);
      expect(children.length).toBeGreaterThan(1);
      npm.child.kill('SIGTERM');
      await npm.exited;
    } finally {
      if (npm.child.exitCode === null && npm.child.signalCode === null) npm.child.kill('SIGKILL');
    }
    expect(npm.output().stdout).toContain('Received SIGTERM, shutting down');
    // Everything npm started (shell, node, postgres and its workers) ends within the grace period.
    const deadline = Date.now() + 10_000;
    while (children.some(isRunning) && Date.now() < deadline) await sleep(100);
    expect(children.filter(isRunning)).toEqual([]);
    expect(await isListening(port)).toBe(false);
    expect(await isListening(databasePort)).toBe(false);
  });
});

// The tutorial's `npx gatehouse start`, on the same embedded cluster, stopped by one signal sent to
// the npx process alone, as a process manager or `kill` sends it. npx runs the CLI under
// `sh -c` and forwards the signal to that shell only: dash dies of a SIGTERM without passing it on,
// and catches a SIGINT and waits on. Either way the server must stop and take its cluster along.
describe.each(['SIGTERM', 'SIGINT'] as const)('npx gatehouse start, then %s to npx', (signal) => {
  it('stops the server and its cluster, leaving nothing running or listening', { timeout: 150_000 }, async () => {
    const port = await freePort();
    const env = { DATABASE_URL: '', GATEHOUSE_HOME: home, PORT: String(port), GATEHOUSE_PASETO_SECRET_KEY: '' };
    // A process group of its own, to clean up after a failure; the signal goes to npx alone.
    const npx = startCommand('npx', ['gatehouse', 'start'], env, { detached: true });
    let started: number[] = [];
    try {
      const stdout = await npx.waitFor(/^Database: .*$/m, 110_000);
      const databasePort = Number(new URL(/^Database: (\S+)/m.exec(stdout)?.[1] ?? '').port);
      started = descendants(npx.child.pid!);
      expect(await Promise.all([isListening(port), isListening(databasePort)])).toEqual([true, true]);
      npx.child.kill(signal);
      const stopped = await Promise.race([npx.exited, sleep(30_000).then(() => 'still running')]);
      expect(stopped, npx.output().stdout).not.toBe('still running');
      // npx is done once its shell is: the server may still be shutting down, within the grace period.
      const deadline = Date.now() + 15_000;
      while (started.some(isRunning) && Date.now() < deadline) await sleep(100);
      expect(started.filter(isRunning).map(commandOf)).toEqual([]);
      expect(npx.output().stdout).toContain(`Received ${signal}, shutting down`);
      expect(await Promise.all([isListening(port), isListening(databasePort)])).toEqual([false, false]);
    } finally {
      if (started.some(isRunning)) process.kill(-npx.child.pid!, 'SIGKILL');
    }
  });
});
