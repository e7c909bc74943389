import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoData } from '../../../../policies/demo-data.js';
import demo from '../../../../policies/gatehouse.config.js';
import { DEMO_ROUTE_GROUPS } from '../../../../policies/route-groups.js';
import { DEMO_PASSWORD, DEMO_ROLES, seedDemo } from '../../../../policies/seed.js';
import { generateTokenKeyPair } from '../../../../server/auth/token-keys.js';
import { createServer, type GatehouseServer } from '../../../../server/create-server.js';
import { freePort, startEmbeddedCluster, type EmbeddedCluster } from '../../../../server/db/cluster/embedded-cluster.js';
import { migrate } from '../../../../server/db/migrations/migrations.js';
import { queryOnce } from '../../../support/query.js';
import { Api } from '../../support/http-client.js';
import { asServiceLogin, provisionServiceLogin } from '../../../support/service-login.js';
import { clusterFolder } from '../../../support/cluster-folder.js';

// A real PostgreSQL of this file's own, stopped and started again under a bounded concurrent
// load: the shared test cluster must not go down for the other files.
const WORKERS = 6;
// 503s each worker receives before the database comes back.
const OUTAGE_ROUNDS = 3;
const UNAVAILABLE = { message: 'Service unavailable: the database cannot be reached.' };

interface Outcome {
  kind: 'post' | 'organization' | 'read';
  status: number;
  body: { id?: number; slug?: string; message?: string };
  startedAt: number;
  endedAt: number;
}

let dir: string;
let port: number;
let cluster: EmbeddedCluster;
let server: GatehouseServer;
let api: Api;

const startCluster = () => startEmbeddedCluster({ dataDir: join(dir, 'pg'), persistent: true, port });

beforeAll(async () => {
  dir = await clusterFolder('restart');
  port = await freePort();
  cluster = await startCluster();
  await queryOnce(cluster.url(), 'CREATE DATABASE gatehouse');
  await migrate(cluster.url('gatehouse'), { dir: demo.migrations });
  await seedDemo(cluster.url('gatehouse'));
  server = await createServer({
    database: asServiceLogin(await provisionServiceLogin(cluster.url('gatehouse')), 4),
    tokens: { secretKey: (await generateTokenKeyPair()).secretKey },
    routeGroups: DEMO_ROUTE_GROUPS,
    organizationRoles: Object.fromEntries(DEMO_ROLES.map((role) => [role.slug, role.permissions])),
    data: demoData,
    // The load creates organizations as one user for as long as it runs: far past the production limits.
    organizationCreation: { perHour: 1_000_000, maxOwned: 1_000_000 },
    logger: pino({ level: 'silent' }),
  });
  api = new Api(await server.listen({ port: 0, host: '127.0.0.1' }));
});

afterAll(async () => {
  await server?.close();
  await cluster?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Workers that each send one request at a time until told to stop: writes, nested writes, reads. */
function startLoad(token: string) {
  const outcomes: Outcome[] = [];
  const waiting: { until: (outcomes: Outcome[]) => boolean; resolve: () => void }[] = [];
  let running = true;
  let sequence = 0;
  const worker = async (index: number) => {
    while (running) {
      const n = sequence++;
      const kind = (['post', 'organization', 'read'] as const)[n % 3]!;
      const startedAt = Date.now();
      const response =
        kind === 'post'
          ? await api.post('/api/acme/posts', { token, body: { title: `load ${index}-${n}` } })
          : kind === 'organization'
            ? await api.post('/api/organizations', { token, body: { name: `Load ${n}`, slug: `load-${n}` } })
            : await api.get('/api/acme/posts?per_page=1', { token });
      outcomes.push({ kind, status: response.status, body: response.body, startedAt, endedAt: Date.now() });
      for (const waiter of waiting.filter((entry) => entry.until(outcomes))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  const workers = Promise.all(Array.from({ length: WORKERS }, (_, index) => worker(index)));
  return {
    outcomes,
    /** Resolves once the outcomes so far satisfy `until`: the load's own signal, not a guess at time. */
    reached: (what: string, until: (outcomes: Outcome[]) => boolean, timeoutMs = 15_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the load never reached: ${what}`)), timeoutMs);
        waiting.push({ until, resolve: () => (clearTimeout(timer), resolve()) });
      }),
    stop: async () => {
      running = false;
      await workers;
      return outcomes;
    },
  };
}

describe('PostgreSQL stopped and started under load', { timeout: 120_000 }, () => {
  it('answers 503 {message} fast while it is down, recovers within 5 s, and loses no acknowledged write', async () => {
    const login = await api.post('/api/auth/login', { body: { email: 'owner@acme.test', password: DEMO_PASSWORD } });
    expect(login.status).toBe(200);
    const load = startLoad(login.body.token as string);

    // Each kind of request has succeeded once the database is in use.
    const succeededSince = (since: number) => (outcomes: Outcome[]) =>
      (['post', 'organization', 'read'] as const).every((kind) => outcomes.some((outcome) => outcome.kind === kind && outcome.startedAt >= since && outcome.status < 300));
    await load.reached('every kind of request answered', succeededSince(0));
    await cluster.stop();
    const downAt = Date.now();
    // Down until every worker has been answered 503 a few times: the outage was seen, whatever the machine's speed.
    await load.reached('503s during the outage', (outcomes) => outcomes.filter((outcome) => outcome.startedAt >= downAt && outcome.status === 503).length >= WORKERS * OUTAGE_ROUNDS);
    cluster = await startCluster();
    const backAt = Date.now();
    await load.reached('every kind of request answered after the restart', succeededSince(backAt));
    const outcomes = await load.stop();

    const firstSuccess = Math.min(...outcomes.filter((outcome) => outcome.startedAt >= backAt && outcome.status < 300).map((outcome) => outcome.endedAt));
    const recoveryMs = firstSuccess - backAt;
    const duringOutage = outcomes.filter((outcome) => outcome.startedAt >= downAt && outcome.endedAt <= backAt);
    const statuses = (list: Outcome[]) => list.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
    const slowest = Math.max(...outcomes.map((outcome) => outcome.endedAt - outcome.startedAt));
    console.log(
      `database restart: ${outcomes.length} requests, during the outage ${JSON.stringify(statuses(duringOutage))}, ` +
        `overall ${JSON.stringify(statuses(outcomes))}, slowest ${slowest} ms, recovery ${recoveryMs} ms`,
    );

    expect(new Set(outcomes.map((outcome) => outcome.status))).toSatisfy((seen: Set<number>) => [...seen].every((status) => [200, 201, 503].includes(status)));
    expect(duringOutage.length).toBeGreaterThan(0);
    for (const outcome of duringOutage) expect(outcome).toMatchObject({ status: 503, body: UNAVAILABLE });
    expect(slowest).toBeLessThan(5_000);
    expect(recoveryMs).toBeLessThan(5_000);

    // Every write the service acknowledged is there, and every organization is whole: its
    // roles' permissions and its owner's membership were written with it or not at all.
    const owner = cluster.url('gatehouse');
    const posts = outcomes.filter((outcome) => outcome.kind === 'post' && outcome.status === 201).map((outcome) => outcome.body.id);
    const organizations = outcomes.filter((outcome) => outcome.kind === 'organization' && outcome.status === 201).map((outcome) => outcome.body.slug);
    expect(posts.length).toBeGreaterThan(0);
    expect(organizations.length).toBeGreaterThan(0);
    const [stored] = await queryOnce<{ posts: number; organizations: number }>(
      owner,
      'SELECT (SELECT count(*)::int FROM posts WHERE id = ANY($1)) AS posts, (SELECT count(*)::int FROM organizations WHERE slug = ANY($2)) AS organizations',
      [posts, organizations],
    );
    expect(stored).toEqual({ posts: posts.length, organizations: organizations.length });
    const broken = await queryOnce(
      owner,
      `SELECT o.slug FROM organizations o
        WHERE o.slug LIKE 'load-%' AND NOT EXISTS (SELECT FROM user_roles m WHERE m.organization_id = o.id)
           OR o.slug LIKE 'load-%' AND (SELECT count(DISTINCT role_id) FROM org_role_permissions p WHERE p.organization_id = o.id) <> $1`,
      [DEMO_ROLES.length],
    );
    expect(broken).toEqual([]);
  });
});
