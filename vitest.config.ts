import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources (the `gatehouse-source` export
// condition), so tests never need a build; published packages point at dist/.
const SOURCE = 'gatehouse-source';

const DATABASE = 'tests/support/setup-database.ts';
// The projects whose tests start `gatehouse` processes build the CLI once for all of them.
const CLI_BUILD = 'tests/support/setup-cli-build.ts';
const UNIT = ['tests/engine/**/*.test.ts', 'tests/client/**/*.test.{ts,tsx}', 'tests/docs/**/*.test.ts'];
const BROWSER = ['tests/browser/**/*.test.ts'];
const PACKAGES = ['tests/packages/**/*.test.ts'];
const SERVER_RESOLVE = { conditions: [SOURCE, ...defaultServerConditions.filter((condition) => condition !== 'module')], mainFields: ['main'] };
// Statistics over response times: run alone, after every other project, so npm pack, tsc and
// Chromium are not competing for the same two cores while they measure.
const TIMING = ['tests/server/timing-oracle.test.ts'];

// Each project sets up only what its tests need: unit tests start no database and build nothing.
// `npm test` runs them all; `npm run test:fast` runs unit and db.
export default defineConfig({
  resolve: { conditions: [SOURCE, ...defaultClientConditions] },
  // Server code resolves packages as Node does: no bundlers' `module` builds, which some packages
  // (OpenTelemetry's) ship with imports Node cannot load, and Vite hands external packages to Node.
  ssr: { resolve: SERVER_RESOLVE },
  // The environment the global setups run in (migrating the template, building the CLI) resolves
  // the same way: without it, workspace packages would load from their dist/, stale or missing.
  environments: { __vitest__: { resolve: SERVER_RESOLVE } },
  test: {
    setupFiles: ['tests/support/node-binary-types.ts'],
    reporters: ['default', './tests/support/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      // Everything the other projects do not claim: a new test folder lands here by default.
      {
        extends: true,
        test: { name: 'db', include: ['tests/**/*.test.{ts,tsx}'], exclude: [...UNIT, ...BROWSER, ...PACKAGES, ...TIMING], globalSetup: [DATABASE, CLI_BUILD] },
      },
      { extends: true, test: { name: 'timing', include: TIMING, globalSetup: [DATABASE], sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'browser', include: BROWSER, globalSetup: [DATABASE, CLI_BUILD, 'tests/support/setup-web-build.ts'] } },
      { extends: true, test: { name: 'packages', include: PACKAGES, globalSetup: [DATABASE, 'tests/support/setup-pack-folder.ts'] } },
    ],
  },
});
