import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { databaseUrl } from '../../harness/cluster.js';
import { queryOnce } from './query.js';

export interface TestDatabase {
  name: string;
  /** Owner (superuser) connection string: migrations, fixtures, assertions behind RLS. */
  ownerUrl: string;
  drop(): Promise<void>;
}

async function createDatabase(template: string | null): Promise<TestDatabase> {
  const name = `gatehouse_test_${randomBytes(6).toString('hex')}`;
  const clusterUrl = inject('clusterUrl');
  await queryOnce(clusterUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  return {
    name,
    ownerUrl: databaseUrl(clusterUrl, name),
    drop: async () => void (await queryOnce(clusterUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

/** A fresh copy of the migrated, demo-seeded template, private to the caller. */
export function createTestDatabase(): Promise<TestDatabase> {
  return createDatabase(inject('templateDatabase'));
}

/** A database with nothing in it yet: for tests of migrating and seeding themselves. */
export function createEmptyDatabase(): Promise<TestDatabase> {
  return createDatabase(null);
}
