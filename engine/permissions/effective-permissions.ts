import { subtractConditioned } from './conditioned-permissions.js';
import { parsePermission } from './parse-permission.js';
import { formatPermissionEntries, PermissionSet } from './permission-entries.js';
import { subtractPermissions } from './subtract-permissions.js';

export interface PermissionSources {
  readonly role: Iterable<string>;
  readonly granted?: Iterable<string>;
  readonly denied?: Iterable<string>;
}

/**
 * (role ∪ granted) − denied, where a deny always wins: over a plain grant, over `{slug}.*` and
 * over `*`, and a wildcard deny removes every action it covers, custom ones included. A
 * conditioned permission (`posts.update:own`) works on records: a grant widens the records, a
 * deny removes exactly the records its condition matches (`subtractConditioned`). Every input is
 * validated. The result is deduplicated and sorted, and may carry `!`-exclusions.
 */
export function effectivePermissions({ role, granted = [], denied = [] }: PermissionSources): string[] {
  const grants = setOf(role, granted);
  const denies = setOf(denied);
  return formatPermissionEntries(
    subtractPermissions(grants.patterns, denies.patterns),
    subtractConditioned(grants.patterns, denies.patterns, grants.conditioned, denies.conditioned),
  );
}

function setOf(...lists: Iterable<string>[]): PermissionSet {
  const set = new PermissionSet();
  for (const list of lists) {
    for (const permission of list) set.add(parsePermission(permission));
  }
  return set;
}
