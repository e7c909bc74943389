// `npm run bench -- hostile-tenant`: what a second organization sees while one organization sends
// the worst requests its limits allow, at full speed (issue 34). The service runs as
// `gatehouse serve` does, in a process of its own with the default pool (10 connections) and the
// stored decision log; each load runs in an autocannon process of its own.
//
// The hostile organization (`bench`: BENCH_ROWS posts, default 10,000, two comments each) has
// four members, each sending one kind of request with BENCH_ATTACK_CONNECTIONS connections
// (default 16): the deepest include the server accepts (`comments.post.comments...`, probed hop
// by hop up to BENCH_INCLUDE_HOPS, default 8) on its largest page; its largest page with every
// sort, every filter and a search; another deepest include; and a viewer's refused deletions,
// which the decision log records. The victim, globex's owner, reads a post (show) and its posts
// (index) with BENCH_VICTIM_CONNECTIONS (default 2, a user's share of the pool) for BENCH_SECONDS
// each (default 10): first on a quiet server, then under the attack.
// Reports the victim's p50, p99 and error rate quiet and under attack, what the attackers got
// (answers by status), the server's peak RSS, whether it kept serving, and the goals as met or
// missed; writes bench/results/hostile-tenant.json.
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DEMO_PASSWORD, seedDemo } from '../policies/seed.js';
import { generateTokenKeyPair } from '../server/auth/token-keys.js';
import { writeBenchResult } from './support/bench-result.js';
import { withBenchDatabase } from './support/bench-database.js';
import { benchSetting as setting } from './support/bench-setting.js';
import { printedGoals, verdictOf, type Goal } from './support/goals.js';
import { countedLoad, type CountedLoadResult } from './support/load-generator.js';
import { peakRssDuring, rssMiB } from './support/process-memory.js';
import { HOSTILE_MEMBERS, seedHostileTenant } from './support/seed-hostile-tenant.js';
import { startServerProcess } from './support/server-process.js';

const ROWS = setting('BENCH_ROWS', 10_000);
const SECONDS = setting('BENCH_SECONDS', 10);
const ATTACK_CONNECTIONS = setting('BENCH_ATTACK_CONNECTIONS', 16);
const VICTIM_CONNECTIONS = setting('BENCH_VICTIM_CONNECTIONS', 2);
const INCLUDE_HOPS = setting('BENCH_INCLUDE_HOPS', 8);
/** Page sizes tried, largest first: the first the server accepts is the attack's. */
const PAGE_SIZES = [1000, 500, 250, 100, 50, 25];

const here = dirname(fileURLToPath(import.meta.url));
const round2 = (value: number) => Math.round(value * 100) / 100;

await withBenchDatabase(async (ownerUrl) => {
  await seedDemo(ownerUrl);
  console.log(`Seeding the hostile organization with ${ROWS} posts and ${2 * ROWS} comments...`);
  const tenant = await seedHostileTenant(ownerUrl, ROWS);
  const owner = new pg.Client({ connectionString: ownerUrl });
  await owner.connect();
  const scalar = async (text: string, values: unknown[] = []) => Object.values((await owner.query(text, values)).rows[0] as object)[0] as number;
  const victimPost = await scalar("SELECT id FROM posts WHERE title = 'Globex launch'");
  const { secretKey } = await generateTokenKeyPair();
  const server = await startServerProcess('gatehouse', join(here, 'http', 'gatehouse-server.ts'), {
    BENCH_OWNER_URL: ownerUrl,
    BENCH_SECRET_KEY: secretKey,
    BENCH_POOL: '10',
    BENCH_DECISION_LOG: 'database',
  });
  try {
    const bearer = async (email: string) => {
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: DEMO_PASSWORD }),
      });
      const { token } = (await login.json()) as { token: string };
      return { authorization: `Bearer ${token}` };
    };
    const status = async (path: string, headers: Record<string, string>) => (await fetch(`${server.url}${path}`, { headers })).status;
    const attacker = { owner: await bearer(HOSTILE_MEMBERS.owner), editor: await bearer(HOSTILE_MEMBERS.editor), admin: await bearer(HOSTILE_MEMBERS.admin), refuser: await bearer(HOSTILE_MEMBERS.refuser) };
    const victim = await bearer('owner@globex.test');

    // The worst the server accepts, found by asking it: this works under any limits it has.
    const index = `/api/${tenant.slug}/posts`;
    let perPage = 0;
    for (const size of PAGE_SIZES) if (perPage === 0 && (await status(`${index}?per_page=${size}`, attacker.owner)) === 200) perPage = size;
    const include = (hops: number) => Array.from({ length: hops }, (_, hop) => (hop % 2 === 0 ? 'comments' : 'post')).join('.');
    let hops = 0;
    while (hops < INCLUDE_HOPS && (await status(`${index}?per_page=${perPage}&include=${include(hops + 1)}`, attacker.owner)) === 200) hops += 1;
    const authorId = await scalar("SELECT id FROM users WHERE email = 'owner@acme.test'");
    const listing = `${index}?per_page=${perPage}&sort=-created_at,title&filter[status]=published&filter[author_id]=${authorId}&search=post`;
    if ((await status(listing, attacker.editor)) !== 200) throw new Error(`the listing attack is refused: ${listing}`);
    const deepest = `${index}?per_page=${perPage}${hops > 0 ? `&include=${include(hops)}` : ''}`;
    console.log(`Attack: per_page ${perPage}, include ${hops} hops, every sort and filter, refused deletions.`);

    const victimTargets = { show: `/api/globex/posts/${victimPost}`, index: '/api/globex/posts' };
    const measureVictim = async (seconds: number) => {
      const measured: Record<string, CountedLoadResult> = {};
      for (const [name, path] of Object.entries(victimTargets)) {
        measured[name] = await countedLoad({ url: `${server.url}${path}`, headers: victim, connections: VICTIM_CONNECTIONS, length: { seconds } });
      }
      return measured;
    };

    console.log('Warming up, then the quiet baseline...');
    await measureVictim(1);
    const loadBefore = loadavg();
    const quiet = await measureVictim(SECONDS);

    console.log('Under attack...');
    const attackSeconds = 2 * SECONDS + 2;
    const attack = (path: string, headers: Record<string, string>, method = 'GET') =>
      countedLoad({ url: `${server.url}${path}`, headers, connections: ATTACK_CONNECTIONS, length: { seconds: attackSeconds }, method });
    const { result, peakRssMiB } = await peakRssDuring(server.pid, async () => {
      const attacks = Promise.all([
        attack(deepest, attacker.owner),
        attack(listing, attacker.editor),
        attack(deepest, attacker.admin),
        attack(`${index}/${tenant.postId}`, attacker.refuser, 'DELETE'),
      ]);
      // The attack reaches full speed before the victim is measured.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const underAttack = await measureVictim(SECONDS);
      return { underAttack, attacks: await attacks };
    });
    const loadAfter = loadavg();
    const serving = (await status('/api/health', {})) === 200;
    const idleRssMiB = await rssMiB(server.pid);
    const refusalsSent = result.attacks[3].statuses['403'] ?? 0;
    const refusalsStored = await scalar('SELECT count(*)::int FROM decision_logs WHERE organization_id = $1', [tenant.organizationId]);

    // A load none of whose requests was answered within the run waited at least the whole run.
    const p99Of = (load: CountedLoadResult) => (load.requests === 0 ? SECONDS * 1000 : load.p99Ms);
    const figures = (load: CountedLoadResult) => ({
      requests: load.requests,
      requestsPerSecond: load.requestsPerSecond,
      p50Ms: load.requests === 0 ? SECONDS * 1000 : load.p50Ms,
      p99Ms: p99Of(load),
      errorRate: round2(load.failures / Math.max(1, load.requests)),
      unanswered: load.unanswered,
    });
    const victimFigures = Object.fromEntries(
      Object.keys(victimTargets).map((name) => [name, { quiet: figures(quiet[name]!), underAttack: figures(result.underAttack[name]!) }]),
    );
    const attackNames = ['deepest include, largest page', 'largest page, every sort, filter and search', 'deepest include, second member', 'refused deletions'];
    const attacks = Object.fromEntries(result.attacks.map((load, at) => [attackNames[at], { requestsPerSecond: load.requestsPerSecond, p99Ms: load.p99Ms, statuses: load.statuses }]));
    const p99Ratio = (name: string) => round2(p99Of(result.underAttack[name]!) / Math.max(1, p99Of(quiet[name]!)));
    const goals: Goal[] = [
      { name: 'victim errors under attack (show + index)', bound: 'at most', target: 0, measured: result.underAttack.show!.failures + result.underAttack.index!.failures },
      { name: 'victim show p99, under attack / quiet', bound: 'at most', target: 3, measured: p99Ratio('show') },
      { name: 'victim index p99, under attack / quiet', bound: 'at most', target: 3, measured: p99Ratio('index') },
      { name: 'server peak RSS under attack, MiB', bound: 'at most', target: 400, measured: peakRssMiB },
      { name: 'server still serving after the attack (1 = yes)', bound: 'at least', target: 1, measured: serving ? 1 : 0 },
    ];
    const verdicts = Object.fromEntries(goals.map((goal) => [goal.name, verdictOf(goal)]));
    const report = {
      benchmark: 'hostile-tenant',
      rows_in_hostile_tenant: ROWS,
      pool: 10,
      seconds: SECONDS,
      attack_connections: ATTACK_CONNECTIONS,
      victim_connections: VICTIM_CONNECTIONS,
      attack: { per_page: perPage, include_hops: hops, include_hops_tried: INCLUDE_HOPS },
      load_generator: 'autocannon, one process per load',
      load_average: { before: loadBefore.map(round2), after: loadAfter.map(round2) },
      victim: victimFigures,
      attacks,
      decision_log: { refusals_answered: refusalsSent, refusals_stored: refusalsStored },
      server: { peak_rss_mib: peakRssMiB, rss_after_mib: idleRssMiB, serving },
      goals: verdicts,
      node: process.version,
      measured_at: new Date().toISOString(),
    };
    await writeBenchResult('hostile-tenant', report, { victim: victimFigures, attacks, decision_log: report.decision_log, server: report.server });
    console.log(`\nGoals (issue 34):\n${printedGoals(verdicts)}`);
  } finally {
    await server.stop();
    await owner.end();
  }
});
