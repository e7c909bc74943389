import { generateTokenKeyPair } from '../../server/auth/token-keys.js';
import { seedDemo } from '../../policies/seed.js';
import { seedBenchTenant, type BenchTenant } from './seed-bench-tenant.js';

/**
 * The demo seeded with a `bench` tenant of `rows` posts, and the environment every benchmark
 * server of bench/http starts with: the database, a signing key, and a pool as large as the
 * connections the rounds open, for every server alike.
 */
export async function seededBenchServersEnv(ownerUrl: string, rows: number, connections: number): Promise<{ tenant: BenchTenant; env: Record<string, string> }> {
  await seedDemo(ownerUrl);
  console.log(`Seeding a tenant with ${rows} posts...`);
  const tenant = await seedBenchTenant(ownerUrl, rows);
  const { secretKey } = await generateTokenKeyPair();
  return { tenant, env: { BENCH_OWNER_URL: ownerUrl, BENCH_SECRET_KEY: secretKey, BENCH_POOL: String(connections) } };
}
