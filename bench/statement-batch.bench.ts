// What one Sync for a read's statements saves against a Sync per statement
// (server/db/connection/statement-batch.ts). BENCH_WORKERS (default 8) pipelined connections each
// run BENCH_ITERATIONS (default 2,000) transactions of a show with two includes: BEGIN, three
// named prepared statements, COMMIT, in one write. Once with pg's own Query per statement (a Sync
// and a ReadyForQuery each), once as one batch; in BENCH_ROUNDS (default 5) interleaved rounds,
// the median of each stands. Node CPU is this process's, PostgreSQL CPU its backends' (from
// /proc). Writes bench/results/statement-batch.json.
import pg from 'pg';
import { StatementBatch, type PreparedStatements } from '../server/db/connection/statement-batch.js';
import { benchSetting } from './support/bench-setting.js';
import { withBenchDatabase } from './support/bench-database.js';
import { processStat } from './support/cluster-cpu.js';
import { writeBenchResult } from './support/bench-result.js';

const WORKERS = benchSetting('BENCH_WORKERS', 8);
const ITERATIONS = benchSetting('BENCH_ITERATIONS', 2_000);
const ROUNDS = benchSetting('BENCH_ROUNDS', 5);

const STATEMENTS = [
  { name: 'batch_record', text: 'SELECT * FROM batch_posts WHERE id = $1', values: [42] },
  { name: 'batch_comments', text: 'SELECT * FROM batch_comments WHERE post_id IN (SELECT id FROM batch_posts WHERE id = $1) ORDER BY id LIMIT $2', values: [42, 1001] },
  { name: 'batch_author', text: 'SELECT * FROM batch_posts WHERE author_id IN (SELECT author_id FROM batch_posts WHERE id = $1) ORDER BY id LIMIT $2', values: [42, 1] },
];

type Transaction = (client: pg.Client, prepared: PreparedStatements) => Promise<unknown>;

/** A Sync per statement: pg's Query, as the statement client sent them before. */
const syncEach: Transaction = (client) =>
  Promise.all([client.query('BEGIN'), ...STATEMENTS.map((statement) => client.query(statement)), client.query('COMMIT')]);

/** One Sync for the three. */
const oneSync: Transaction = (client, prepared) => {
  const batch = new StatementBatch(STATEMENTS, prepared, client);
  return Promise.all([client.query('BEGIN'), client.query(batch), ...batch.answers, client.query('COMMIT')]);
};

const ticks = async (pids: string[]) => (await Promise.all(pids.map(processStat))).reduce((sum, stat) => sum + (stat?.ticks ?? 0), 0);

/** Node and PostgreSQL CPU per transaction, in microseconds. */
async function round(ownerUrl: string, transaction: Transaction): Promise<{ node: number; postgres: number }> {
  const clients = await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      const client = new pg.Client({ connectionString: ownerUrl, pipeline: true });
      await client.connect();
      return client;
    }),
  );
  try {
    const run = (count: number) =>
      Promise.all(
        clients.map(async (client) => {
          const prepared: PreparedStatements = new Map();
          for (let i = 0; i < count; i += 1) {
            client.connection.stream.cork();
            const sent = transaction(client, prepared);
            client.connection.stream.uncork();
            await sent;
          }
        }),
      );
    await run(50);
    const pids = await Promise.all(clients.map(async (client) => String((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid)));
    const postgresBefore = await ticks(pids);
    const nodeBefore = process.cpuUsage();
    await run(ITERATIONS);
    const node = process.cpuUsage(nodeBefore);
    const postgres = (await ticks(pids)) - postgresBefore;
    const transactions = WORKERS * ITERATIONS;
    return { node: (node.user + node.system) / transactions, postgres: (postgres * 10_000) / transactions };
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

await withBenchDatabase(async (ownerUrl) => {
  const setup = new pg.Client({ connectionString: ownerUrl });
  await setup.connect();
  await setup.query(`CREATE TABLE batch_posts AS SELECT n AS id, 'Post ' || n AS title, now() AS created_at, n % 7 AS author_id FROM generate_series(1, 2000) n;
    ALTER TABLE batch_posts ADD PRIMARY KEY (id);
    CREATE TABLE batch_comments AS SELECT n AS id, n % 2000 AS post_id, 'Comment ' || n AS body FROM generate_series(1, 6000) n;
    CREATE INDEX ON batch_comments (post_id)`);
  await setup.end();
  const variants: [string, Transaction][] = [
    ['a Sync per statement', syncEach],
    ['one Sync', oneSync],
  ];
  const measured = new Map(variants.map(([name]) => [name, { node: [] as number[], postgres: [] as number[] }]));
  for (let r = 0; r < ROUNDS; r += 1) {
    for (const [name, transaction] of r % 2 === 0 ? variants : [...variants].reverse()) {
      const { node, postgres } = await round(ownerUrl, transaction);
      measured.get(name)!.node.push(node);
      measured.get(name)!.postgres.push(postgres);
      console.log(`round ${r + 1}, ${name}: Node ${node.toFixed(1)} µs, PostgreSQL ${postgres.toFixed(1)} µs per transaction`);
    }
  }
  const results = Object.fromEntries(
    [...measured].map(([name, { node, postgres }]) => [name, { nodeCpuMicrosecondsPerTransaction: Math.round(median(node)), postgresCpuMicrosecondsPerTransaction: Math.round(median(postgres)) }]),
  );
  await writeBenchResult('statement-batch', { node: process.version, measured_at: new Date().toISOString(), workers: WORKERS, iterations: ITERATIONS, rounds: ROUNDS, results }, results);
});
