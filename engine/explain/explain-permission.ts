import { abilityPermits } from '../ability/ability-permits.js';
import { compileAbility } from '../ability/compile-ability.js';
import { effectivePermissions } from '../permissions/effective-permissions.js';
import { parsePermission, type Permission } from '../permissions/parse-permission.js';
import { PermissionPatterns } from '../permissions/permission-patterns.js';
import { WILDCARD } from '../wire/wildcard.js';

/**
 * The lists a caller's permissions come from: a tenant member's role permissions in the
 * organization and the membership's granted and denied lists; in a non-tenant route group the
 * user's own `users.permissions` (`user`) with its granted and denied lists.
 */
export interface ExplainedSources {
  readonly role?: Iterable<string>;
  readonly user?: Iterable<string>;
  readonly granted?: Iterable<string>;
  readonly denied?: Iterable<string>;
}

export type GrantSource = 'role' | 'granted' | 'user';

export interface PermissionExplanation {
  readonly permission: string;
  readonly allowed: boolean;
  /** The effective permissions hold `*` (less any denies). */
  readonly superadmin: boolean;
  /** Every grant entry that covers the permission, in source order. */
  readonly granted_by: { readonly source: GrantSource; readonly entry: string }[];
  /** Every deny entry that takes any of the permission away. */
  readonly denied_by: { readonly source: 'denied'; readonly entry: string }[];
}

const GRANT_SOURCES: readonly GrantSource[] = ['role', 'user', 'granted'];

/**
 * Why the sources do or do not hold `permission`. The verdict is the one the server enforces,
 * (role ∪ user ∪ granted) − denied compiled to an ability; the entries name every source entry
 * that took part, not only the first. A deny counts when it covers the permission or, for a
 * wildcard question (`posts.*`), when it carves a part out of it.
 */
export function explainPermission(sources: ExplainedSources, permission: string): PermissionExplanation {
  const asked = parsePermission(permission);
  const entries = (source: GrantSource | 'denied') => [...(sources[source] ?? [])];
  const effective = effectivePermissions({ role: [...entries('role'), ...entries('user')], granted: entries('granted'), denied: entries('denied') });
  return {
    permission,
    allowed: abilityPermits(compileAbility(effective), permission),
    superadmin: effective.includes(WILDCARD),
    granted_by: GRANT_SOURCES.flatMap((source) => entries(source).filter((entry) => covers(entry, asked)).map((entry) => ({ source, entry }))),
    denied_by: entries('denied')
      .filter((entry) => covers(entry, asked) || covers(permission, parsePermission(entry)))
      .map((entry) => ({ source: 'denied' as const, entry })),
  };
}

function covers(pattern: string, permission: Permission): boolean {
  const patterns = new PermissionPatterns();
  patterns.add(parsePermission(pattern));
  return patterns.covers(permission);
}
