// The service as `gatehouse serve` runs it (demo models and policies, request logs written, here
// to /dev/null), in a process of its own for `npm run bench -- http`.
import { pino } from 'pino';
import { demoData } from '../../policies/demo-data.js';
import { DEMO_ROUTE_GROUPS } from '../../policies/route-groups.js';
import { createServer } from '../../server/create-server.js';
import { DEMO_ROLES } from '../../policies/seed.js';
import { serveBenchmarkParent } from '../support/server-process.js';

const env = process.env;
const server = await createServer({
  database: { connectionString: env.BENCH_OWNER_URL!, maxConnections: Number(env.BENCH_POOL) },
  allowOwnerConnection: true,
  tokens: { secretKey: env.BENCH_SECRET_KEY! },
  routeGroups: DEMO_ROUTE_GROUPS,
  organizationRoles: Object.fromEntries(DEMO_ROLES.map((role) => [role.slug, role.permissions])),
  data: demoData,
  logger: pino(pino.destination({ dest: '/dev/null', sync: false, minLength: 4096 })),
});
serveBenchmarkParent(await server.listen({ port: 0, host: '127.0.0.1' }), () => server.close());
