import { buildCli } from '../../harness/cli-build.js';

/** The CLI the tests spawn, built once per test run from the current sources. */
export default async function setup() {
  await buildCli();
}
