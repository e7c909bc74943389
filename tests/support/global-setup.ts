import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import demo from '../../policies/gatehouse.config.js';
import { seedDemo } from '../../policies/seed.js';
import { migrate } from '../../server/db/migrations.js';
import { startTestCluster } from '../../harness/cluster.js';
import { scratchFolder } from '../../harness/packed-packages.js';
import { queryOnce } from './query.js';
import { buildWebApp } from './web-build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Owner connection string of the cluster's maintenance database. */
    clusterUrl: string;
    /** A migrated, demo-seeded database that each test database is copied from. */
    templateDatabase: string;
    /** The demo web app's built assets, for the browser tests. */
    webRoot: string;
    /** Where the packing tests share the run's one set of tarballs (see sharedTarballs). */
    packFolder: string;
  }
}

// One cluster, one template and one build of the web app for the whole run; every test file
// copies the template, so files run in parallel without sharing rows.
export default async function setup(project: TestProject) {
  const [cluster, web, packFolder] = await Promise.all([startTestCluster(), buildWebApp(), scratchFolder('pack')]);
  const template = `gatehouse_template_${process.pid}`;
  const clusterUrl = cluster.url('postgres');
  await queryOnce(clusterUrl, `DROP DATABASE IF EXISTS ${template}`);
  await queryOnce(clusterUrl, `CREATE DATABASE ${template}`);
  await migrate(cluster.url(template), { dir: demo.migrations });
  await seedDemo(cluster.url(template));
  project.provide('clusterUrl', clusterUrl);
  project.provide('templateDatabase', template);
  project.provide('webRoot', web.dir);
  project.provide('packFolder', packFolder);
  return async () => {
    await web.remove();
    await rm(packFolder, { recursive: true, force: true });
    await queryOnce(clusterUrl, `DROP DATABASE IF EXISTS ${template}`);
    await cluster.stop();
  };
}
