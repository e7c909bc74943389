// The service as `gatehouse serve` runs it (demo models and policies, request logs written by its
// own logger, redaction and batching included, here to /dev/null), in a process of its own for
// `npm run bench -- http`. BENCH_METRICS=1 turns the Prometheus metrics on (served on a port of
// their own, as GATEHOUSE_METRICS_PORT does); BENCH_TRACING=1 starts the OpenTelemetry SDK with
// Gatehouse's spans batched to an exporter that drops them, so the cost measured is the
// service's, not a collector's. The SDK is loaded only then, as `gatehouse serve` does:
// `npm run bench -- startup` times this process's start too. BENCH_DECISION_LOG=database stores
// refusals in decision_logs (`npm run bench -- hostile-tenant`). BENCH_HAND_SCOPED_POSTS=1 serves
// bench/support/hand-scoped-posts.ts too (`npm run bench -- record-rules`).
import { BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace';
import { demoData } from '../../policies/demo-data.js';
import { DEMO_ROUTE_GROUPS } from '../../policies/route-groups.js';
import { createServer } from '../../server/create-server.js';
import { createLogger } from '../../server/http/logger.js';
import { DEMO_ROLES } from '../../policies/seed.js';
import { handScopedPosts, HandScopedPostPolicy } from '../support/hand-scoped-posts.js';
import { serveBenchmarkParent } from '../support/server-process.js';

const env = process.env;
const handScoped = env.BENCH_HAND_SCOPED_POSTS === '1';
const routeGroups = DEMO_ROUTE_GROUPS.map((group) => (handScoped && group.default ? { ...group, models: [...(group.models ?? []), handScopedPosts.slug] } : group));
const tracing = env.BENCH_TRACING === '1';
const dropped: SpanExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
const sdk = tracing ? new (await import('@opentelemetry/sdk-node')).NodeSDK({ spanProcessors: [new BatchSpanProcessor({ exporter: dropped })], instrumentations: [] }) : null;
sdk?.start();
const server = await createServer({
  database: { connectionString: env.BENCH_OWNER_URL!, maxConnections: Number(env.BENCH_POOL) },
  allowOwnerConnection: true,
  tokens: { secretKey: env.BENCH_SECRET_KEY! },
  routeGroups,
  organizationRoles: Object.fromEntries(DEMO_ROLES.map((role) => [role.slug, role.permissions])),
  data: handScoped ? { models: [...demoData.models, handScopedPosts], policies: { ...demoData.policies, HandScopedPostPolicy } } : demoData,
  logger: createLogger('info', '/dev/null'),
  metrics: env.BENCH_METRICS === '1' ? { port: 0, host: '127.0.0.1' } : undefined,
  tracing,
  decisionLog: env.BENCH_DECISION_LOG === 'database' ? { store: 'database' } : undefined,
});
serveBenchmarkParent(await server.listen({ port: 0, host: '127.0.0.1' }), async () => {
  await server.close();
  await sdk?.shutdown();
});
