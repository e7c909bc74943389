import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTokenKeyPair } from '../../server/auth/token-keys.js';
import { runCli, type CliRun } from '../../harness/cli.js';
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from '../support/database.js';
import { queryOnce } from '../support/query.js';

// Each mistake stops `gatehouse start|serve` before it listens, with one line naming what to fix.
// PORT 0 wherever the port is not the mistake: the default, 3000, may be taken on the machine.
let empty: TestDatabase;
let migrated: TestDatabase;
let secretKey: string;

beforeAll(async () => {
  [empty, migrated, { secretKey }] = await Promise.all([createEmptyDatabase(), createTestDatabase(), generateTokenKeyPair()]);
});

afterAll(async () => {
  await Promise.all([empty.drop(), migrated.drop()]);
});

function expectOneLine(run: CliRun, message: string | RegExp): void {
  expect(run.code).toBe(1);
  expect(run.stdout).not.toMatch(/listening|Gatehouse demo on/);
  expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  expect(run.stderr).toMatch(message);
}

const tables = async (db: TestDatabase) => (await queryOnce(db.ownerUrl, "SELECT 1 FROM pg_tables WHERE schemaname = 'public'")).length;

describe('start-up checks', { timeout: 120_000 }, () => {
  it('checks the environment before anything runs', async () => {
    const [port, pool, url, key, creators] = await Promise.all([
      runCli(['start'], empty.ownerUrl, { PORT: 'abc', GATEHOUSE_PASETO_SECRET_KEY: secretKey }),
      runCli(['start'], empty.ownerUrl, { GATEHOUSE_DB_POOL: '0', PORT: '0' }),
      runCli(['serve'], 'mysql://gatehouse:hunter2@localhost/db', { PORT: '0' }),
      runCli(['serve'], migrated.ownerUrl, { GATEHOUSE_PASETO_SECRET_KEY: 'k4.local.hunter2', PORT: '0' }),
      runCli(['serve'], migrated.ownerUrl, { GATEHOUSE_PASETO_SECRET_KEY: secretKey, GATEHOUSE_ORGANIZATION_CREATION_PERMISSION: 'organizations.store:own', PORT: '0' }),
    ]);
    expectOneLine(port, 'PORT must be a whole number. Got "abc".');
    expectOneLine(pool, /^GATEHOUSE_DB_POOL must be a whole number of connections above 0\. Got "0"\.$/m);
    expectOneLine(url, /^DATABASE_URL must be a connection string postgres:/);
    expectOneLine(key, /^GATEHOUSE_PASETO_SECRET_KEY must be a PASERK k4.secret key/);
    // A condition is tested on a record, and an organization being created has none: no one could create one.
    expectOneLine(creators, /^The organizationCreation\.permission field holds an invalid permission: "organizations\.store:own" \(it names the record condition own, but/);
    // A password or a key in a mistaken value stays out of stderr, which ends up in logs.
    for (const run of [url, key]) {
      expect(run.stderr).toContain('Its value is not shown, as it may hold a secret.');
      expect(run.stderr).not.toContain('hunter2');
    }
    expect(await tables(empty)).toBe(0);
  });

  it('names the host and port of a database it cannot reach', async () => {
    const [refused, unknown, missing] = await Promise.all([
      runCli(['serve'], 'postgres://gatehouse:secret@127.0.0.1:1/gatehouse', { GATEHOUSE_PASETO_SECRET_KEY: secretKey, PORT: '0' }),
      runCli(['migrate'], 'postgres://gatehouse:secret@no-such-host.invalid:5432/gatehouse', {}),
      runCli(['start'], `${empty.ownerUrl}_missing`, { GATEHOUSE_PASETO_SECRET_KEY: secretKey, PORT: '0' }),
    ]);
    expectOneLine(refused, /^Cannot use the database at 127\.0\.0\.1:1 \(DATABASE_URL\): connection refused, is PostgreSQL running there\?$/m);
    expectOneLine(unknown, 'Cannot use the database at no-such-host.invalid:5432 (DATABASE_URL): unknown host.');
    expectOneLine(missing, `(DATABASE_URL): it has no database "${empty.name}_missing".`);
    for (const run of [refused, unknown, missing]) expect(run.stderr).not.toContain('secret');
  });

  it('refuses to serve a database that is not migrated', async () => {
    const run = await runCli(['serve'], empty.ownerUrl, { GATEHOUSE_PASETO_SECRET_KEY: secretKey, PORT: '0' });
    expectOneLine(run, 'database not migrated: run `npx gatehouse migrate`');
  });

  it('names PORT or GATEHOUSE_METRICS_PORT when the port is taken, before migrating', async () => {
    const taken: Server = createServer().listen(0);
    await once(taken, 'listening');
    const port = (taken.address() as { port: number }).port;
    try {
      const [run, metrics, same] = await Promise.all([
        runCli(['start'], empty.ownerUrl, { GATEHOUSE_PASETO_SECRET_KEY: secretKey, PORT: String(port) }),
        runCli(['start'], empty.ownerUrl, { GATEHOUSE_PASETO_SECRET_KEY: secretKey, PORT: '0', GATEHOUSE_METRICS_PORT: String(port) }),
        runCli(['start'], empty.ownerUrl, { GATEHOUSE_PASETO_SECRET_KEY: secretKey, PORT: String(port), GATEHOUSE_METRICS_PORT: String(port) }),
      ]);
      expectOneLine(run, `PORT ${port} is already in use: stop what listens there or set PORT to a free port.`);
      expectOneLine(metrics, `GATEHOUSE_METRICS_PORT ${port} is already in use: stop what listens there or set GATEHOUSE_METRICS_PORT to a free port.`);
      expectOneLine(same, `GATEHOUSE_METRICS_PORT must differ from PORT (${port}): metrics are never served on the API's port.`);
      expect(await tables(empty)).toBe(0);
    } finally {
      taken.close();
    }
  });

  it('asks for a signing key outside the demo: gatehouse serve, and production', async () => {
    const [serve, production] = await Promise.all([
      runCli(['serve'], migrated.ownerUrl, { GATEHOUSE_PASETO_SECRET_KEY: '', PORT: '0' }),
      runCli(['start'], migrated.ownerUrl, { GATEHOUSE_PASETO_SECRET_KEY: '', PORT: '0', NODE_ENV: 'production' }),
    ]);
    expectOneLine(serve, 'GATEHOUSE_PASETO_SECRET_KEY is required by `gatehouse serve`: `npx gatehouse keygen` prints a new key.');
    expectOneLine(production, 'GATEHOUSE_PASETO_SECRET_KEY is required in production: `npx gatehouse keygen` prints a new key.');
  });
});
