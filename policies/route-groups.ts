import type { RouteGroupConfig } from '../server/index.js';

/**
 * DESIGN.md 6: `tenant` (organization in the path, the default group behind `/api/auth/*`) and
 * `admin` (no tenancy, its own `/api/admin/auth/*`, permissions from users.permissions).
 */
export const DEMO_ROUTE_GROUPS: readonly RouteGroupConfig[] = [
  { name: 'tenant', prefix: '{organization}', tenancy: 'path', default: true, models: ['posts', 'comments', 'users', 'organizations', 'roles'] },
  { name: 'admin', prefix: 'admin', tenancy: 'none', models: ['organizations', 'users'] },
];
