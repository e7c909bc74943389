import type { TestProject } from 'vitest/node';
import demo from '../../policies/gatehouse.config.js';
import { seedDemo } from '../../policies/seed.js';
import { migrate } from '../../server/db/migrations/migrations.js';
import { startTestCluster } from '../../harness/cluster.js';
import { queryOnce } from './query.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Owner connection string of the cluster's maintenance database. */
    clusterUrl: string;
    /** A migrated, demo-seeded database that each test database is copied from. */
    templateDatabase: string;
  }
}

// One cluster and one template per project that needs a database; every test file copies the
// template, so files run in parallel without sharing rows.
export default async function setup(project: TestProject) {
  const cluster = await startTestCluster();
  const template = `gatehouse_template_${process.pid}_${project.name}`;
  const clusterUrl = cluster.url('postgres');
  await queryOnce(clusterUrl, `DROP DATABASE IF EXISTS ${template}`);
  await queryOnce(clusterUrl, `CREATE DATABASE ${template}`);
  await migrate(cluster.url(template), { dir: demo.migrations });
  await seedDemo(cluster.url(template));
  project.provide('clusterUrl', clusterUrl);
  project.provide('templateDatabase', template);
  return async () => {
    await queryOnce(clusterUrl, `DROP DATABASE IF EXISTS ${template}`);
    await cluster.stop();
  };
}
