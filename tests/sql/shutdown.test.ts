import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../server/db/embedded-cluster.js';
import { generateTokenKeyPair } from '../../server/auth/token-keys.js';
import { BIN, runCli, startCommand } from '../../harness/cli.js';
import { createTestDatabase } from '../support/database.js';
import { descendants, isListening, isRunning } from '../support/processes.js';

// `npm start` exactly as a user runs it, on a fresh embedded cluster of its own (no
// DATABASE_URL), then SIGTERM to the npm process alone, as a container runtime sends it.
let home: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'gatehouse-start-'));
  // As root the cluster runs as the `postgres` user, who must reach the data folder.
  await chmod(home, 0o755);
});

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('npm start, then SIGTERM to npm', { timeout: 180_000 }, () => {
  it('serves, prints the database URL masked, and leaves no process and no listening port behind', async () => {
    const port = await freePort();
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

// npx runs the CLI under a shell (`sh -c 'gatehouse' start`) and hands a SIGTERM to that shell,
// which dies without passing it on: the server must notice it lost its parent and stop.
describe('SIGTERM to a shell in between, as npx does it', { timeout: 120_000 }, () => {
  it('stops the server too, leaving nothing running or listening', async () => {
    const [database, { secretKey }, port] = await Promise.all([createTestDatabase(), generateTokenKeyPair(), freePort()]);
    const env = { DATABASE_URL: database.ownerUrl, GATEHOUSE_ALLOW_OWNER_CONNECTION: 'true', GATEHOUSE_PASETO_SECRET_KEY: secretKey, PORT: String(port), HOST: '127.0.0.1' };
    // `; :` keeps the shell from exec'ing node: it stays the parent, as npx's does.
    const shell = startCommand('sh', ['-c', `"${process.execPath}" "${BIN}" serve; :`], env);
    let server: number[] = [];
    try {
      await shell.waitFor(/listening on http/, 90_000);
      server = descendants(shell.child.pid!);
      expect(server.length).toBeGreaterThan(0);
      shell.child.kill('SIGTERM');
      await shell.exited;
      const deadline = Date.now() + 15_000;
      while (server.some(isRunning) && Date.now() < deadline) await sleep(100);
      expect(server.filter(isRunning)).toEqual([]);
      expect(await isListening(port)).toBe(false);
    } finally {
      for (const pid of server.filter(isRunning)) process.kill(pid, 'SIGKILL');
      await database.drop();
    }
  });
});
