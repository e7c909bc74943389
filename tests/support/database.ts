import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { serviceLoginName } from '../../server/cli/service-login.js';
import { databaseUrl } from '../../harness/cluster.js';
import { queryOnce } from './query.js';
import { dropRoles } from './roles.js';
import { provisionServiceLogin } from './service-login.js';

export interface TestDatabase {
  name: string;
  /** Owner (superuser) connection string: migrations, fixtures, assertions behind RLS. */
  ownerUrl: string;
  /**
   * The connection string of the database's own service login (`svc_` and its name), made on the
   * first call by the provisioning `gatehouse start` runs: a member of gatehouse_app only, the one
   * login besides the owner that may connect here.
   */
  serviceUrl(): Promise<string>;
  /** Drops the database and its service login, whoever made it (this helper or a `gatehouse start` run on it). */
  drop(): Promise<void>;
}

async function createDatabase(template: string | null): Promise<TestDatabase> {
  const name = `gatehouse_test_${randomBytes(6).toString('hex')}`;
  const clusterUrl = inject('clusterUrl');
  await queryOnce(clusterUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const ownerUrl = databaseUrl(clusterUrl, name);
  let serviceUrl: Promise<string> | undefined;
  return {
    name,
    ownerUrl,
    serviceUrl: () => (serviceUrl ??= provisionServiceLogin(ownerUrl)),
    drop: async () => {
      await queryOnce(clusterUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropRoles(serviceLoginName(ownerUrl));
    },
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
