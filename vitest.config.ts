import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources (the `gatehouse-source` export
// condition), so tests never need a build; published packages point at dist/.
const SOURCE = 'gatehouse-source';

export default defineConfig({
  resolve: { conditions: [SOURCE, ...defaultClientConditions] },
  // Server code resolves packages as Node does: no bundlers' `module` builds, which some packages
  // (OpenTelemetry's) ship with imports Node cannot load, and Vite hands external packages to Node.
  ssr: { resolve: { conditions: [SOURCE, ...defaultServerConditions.filter((condition) => condition !== 'module')], mainFields: ['main'] } },
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/node-binary-types.ts'],
    reporters: ['default', './tests/support/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
