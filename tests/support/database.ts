import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export interface TestDatabase {
  name: string;
  /** Owner (superuser) connection string: migrations, fixtures, assertions behind RLS. */
  ownerUrl: string;
  drop(): Promise<void>;
}

function databaseUrl(clusterUrl: string, database: string): string {
  const url = new URL(clusterUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onCluster(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('clusterUrl') });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A fresh copy of the migrated, demo-seeded template, private to the caller. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `gatehouse_test_${randomBytes(6).toString('hex')}`;
  await onCluster(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
  return {
    name,
    ownerUrl: databaseUrl(inject('clusterUrl'), name),
    drop: () => onCluster(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
