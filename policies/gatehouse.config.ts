import { fileURLToPath } from 'node:url';
import { defineConfig } from '../server/index.js';
import { demoData } from './demo-data.js';
import { DEMO_ROUTE_GROUPS } from './route-groups.js';
import { DEMO_ROLES, seedDemo } from './seed.js';

/** The demo application (DESIGN.md 6): what `npm start` serves. */
export default defineConfig({
  migrations: fileURLToPath(new URL('./migrations', import.meta.url)),
  policyTests: fileURLToPath(new URL('./tests', import.meta.url)),
  seed: seedDemo,
  routeGroups: DEMO_ROUTE_GROUPS,
  organizationRoles: Object.fromEntries(DEMO_ROLES.map((role) => [role.slug, role.permissions])),
  data: demoData,
  // The admin console's Decisions page reads the stored refusals.
  decisionLog: { store: 'database' },
});
