import { parsePermission } from './parse-permission.js';
import { formatPermissionEntries } from './permission-entries.js';
import { PermissionPatterns } from './permission-patterns.js';
import { subtractPermissions } from './subtract-permissions.js';

export interface PermissionSources {
  readonly role: Iterable<string>;
  readonly granted?: Iterable<string>;
  readonly denied?: Iterable<string>;
}

/**
 * (role ∪ granted) − denied, where a deny always wins: over a plain grant, over `{slug}.*` and
 * over `*`, and a wildcard deny removes every action it covers, custom ones included. Every
 * input is validated. The result is deduplicated and sorted, and may carry `!`-exclusions.
 */
export function effectivePermissions({ role, granted = [], denied = [] }: PermissionSources): string[] {
  return formatPermissionEntries(subtractPermissions(patternsOf(role, granted), patternsOf(denied)));
}

function patternsOf(...lists: Iterable<string>[]): PermissionPatterns {
  const patterns = new PermissionPatterns();
  for (const list of lists) {
    for (const permission of list) patterns.add(parsePermission(permission));
  }
  return patterns;
}
