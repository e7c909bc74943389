import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { queryOnce } from './query.js';

/** Roles are cluster-wide while each test file has its own database: names must not collide. */
export function uniqueRoleName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

/** Call after the test database is dropped: that removes what else refers to the roles. */
export async function dropRoles(...roles: string[]): Promise<void> {
  for (const role of roles) await queryOnce(inject('clusterUrl'), `DROP ROLE IF EXISTS ${role}`);
}
