import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import demo from '../../../../policies/gatehouse.config.js';
import { seedDemo } from '../../../../policies/seed.js';
import { migrate } from '../../../../server/db/migrations/migrations.js';
import { startFormation, type Formation } from '../../../../harness/auto-failover.js';
import { clusterFolder } from '../../../support/cluster-folder.js';
import { provisionServiceLogin } from '../../../support/service-login.js';
import { queryOnce } from '../../../support/query.js';
import { startDataServer } from '../../support/data-server.js';
import type { TestServer } from '../../support/test-server.js';

// pg_auto_failover, from Debian's packages, runs a monitor and a primary with a synchronous
// standby; Gatehouse's connection string names both nodes and follows whichever is the primary.
let formation: Formation;
let server: TestServer;

beforeAll(async () => {
  formation = await startFormation(await clusterFolder('failover'));
  const primary = await formation.primary();
  await migrate(primary.url, { dir: demo.migrations });
  await seedDemo(primary.url);
  const serviceLogin = new URL(await provisionServiceLogin(primary.url));
  // The service login, on every node of the formation.
  const uri = formation.uri.replace('postgres://postgres@', `postgres://${serviceLogin.username}:${serviceLogin.password}@`);
  const database = { name: 'postgres', ownerUrl: primary.url, serviceUrl: () => Promise.resolve(uri), drop: async () => {} };
  server = await startDataServer({ testDatabase: database });
}, 240_000);

afterAll(async () => {
  await server?.close();
  await formation?.stop();
});

describe('failover with pg_auto_failover', () => {
  it('reaches the promoted standby without a restart, answers 503 with Retry-After meanwhile, and loses no acknowledged write', { timeout: 180_000 }, async () => {
    const token = await server.login('owner@acme.test');
    const acknowledged: number[] = [];
    const refused: { status: number; retryAfter: string | undefined }[] = [];
    const answeredAt: number[] = [];
    let killedAt = 0;
    let stop = false;
    const writer = async (name: string) => {
      for (let sequence = 0; !stop; sequence++) {
        const response = await server.api.post('/api/acme/posts', { token, body: { title: `${name} ${sequence}` } });
        if (response.status === 201) {
          acknowledged.push(response.body.id as number);
          answeredAt.push(Date.now());
        } else {
          refused.push({ status: response.status, retryAfter: response.headers['retry-after'] as string | undefined });
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    };
    const writers = Promise.all(['a', 'b', 'c', 'd'].map(writer));
    const old = await formation.primary();
    await waitFor(() => acknowledged.length >= 20);
    killedAt = Date.now();
    await formation.kill(old);
    // Writes come back once pg_auto_failover has promoted the standby.
    await waitFor(() => answeredAt.filter((at) => at > killedAt).length >= 20);
    stop = true;
    await writers;

    const promoted = await formation.primary();
    expect(promoted.name).not.toBe(old.name);
    // Writes were refused while no node took them, each a 503 with Retry-After.
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.filter(({ status, retryAfter }) => status !== 503 || retryAfter === undefined)).toEqual([]);
    const stored = await queryOnce<{ id: number }>(promoted.url, 'SELECT id FROM posts WHERE id = ANY($1)', [acknowledged]);
    expect(stored.map(({ id }) => id).sort((a, b) => a - b)).toEqual([...acknowledged].sort((a, b) => a - b));
    const gaps = answeredAt.slice(1).map((at, index) => at - answeredAt[index]!);
    console.info(`failover: ${acknowledged.length} writes acknowledged, ${refused.length} answered 503, ${(Math.max(...gaps) / 1000).toFixed(1)} s without a write`);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
