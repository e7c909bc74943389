import { NO_CONDITIONED, type ConditionedPermissions } from './conditioned-permissions.js';
import { formatPermission, parsePermission, type Permission } from './parse-permission.js';
import { PermissionPatterns, type PermissionGroup } from './permission-patterns.js';
import type { PermissionDifference } from './subtract-permissions.js';

/**
 * Marks an exclusion in an effective permission list: `['*', '!posts.forceDelete']` is
 * everything except `posts.forceDelete`. A set minus a deny inside a wildcard has no other
 * finite spelling, because custom actions and slugs make the wildcard open-ended.
 */
export const EXCLUSION_PREFIX = '!';

/** A permission list split into its plain patterns and its conditioned permissions. */
export class PermissionSet {
  readonly patterns = new PermissionPatterns();
  readonly conditioned: Permission[] = [];

  add(permission: Permission): void {
    if (permission.condition === undefined) this.patterns.add(permission);
    else this.conditioned.push(permission);
  }
}

export interface PermissionEntries {
  readonly granted: PermissionSet;
  readonly excluded: PermissionSet;
}

/** Reads a list of permissions and `!`-exclusions; a malformed one throws `InvalidPermissionError`. */
export function parsePermissionEntries(entries: Iterable<string>): PermissionEntries {
  const granted = new PermissionSet();
  const excluded = new PermissionSet();
  for (const entry of entries) {
    if (typeof entry === 'string' && entry.startsWith(EXCLUSION_PREFIX)) excluded.add(parsePermission(entry.slice(EXCLUSION_PREFIX.length)));
    else granted.add(parsePermission(entry));
  }
  return { granted, excluded };
}

/**
 * Grants first, then exclusions, each ordered by slug, then action, so equal sets always print
 * the same. Sorting slugs and then each slug's few actions is far cheaper than sorting the
 * joined strings, which share long prefixes.
 */
export function formatPermissionEntries({ grants, exclusions }: PermissionDifference, conditioned: ConditionedPermissions = NO_CONDITIONED): string[] {
  return [
    ...format(grants, ''),
    ...conditioned.grants.map(formatPermission),
    ...format(exclusions, EXCLUSION_PREFIX),
    ...conditioned.exclusions.map((permission) => EXCLUSION_PREFIX + formatPermission(permission)),
  ];
}

function format(groups: readonly PermissionGroup[], prefix: string): string[] {
  const entries: string[] = [];
  for (const { slug, actions } of [...groups].sort(bySlug)) {
    for (const action of [...actions].sort()) entries.push(prefix + formatPermission({ slug, action }));
  }
  return entries;
}

function bySlug(left: PermissionGroup, right: PermissionGroup): number {
  if (left.slug === right.slug) return 0;
  return left.slug < right.slug ? -1 : 1;
}
