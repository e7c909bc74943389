import { WILDCARD } from '../wire/wildcard.js';
import { EVERYTHING, type PermissionGroup, type PermissionPatterns } from './permission-patterns.js';

/**
 * `granted − denied` in its smallest form: the grants no deny covers and no wider grant
 * contains, and the exclusions, the denies carved out of a surviving wildcard grant (`*` minus
 * `posts.forceDelete`). Patterns nest (`*` ⊇ `{slug}.*` ⊇ `{slug}.{action}`), so a deny either
 * removes a grant whole or, inside a wildcard, becomes an exclusion; a deny that touches no
 * surviving grant is dropped.
 */
export interface PermissionDifference {
  readonly grants: PermissionGroup[];
  readonly exclusions: PermissionGroup[];
}

export function subtractPermissions(granted: PermissionPatterns, denied: PermissionPatterns): PermissionDifference {
  if (denied.coversEverything) return { grants: [], exclusions: [] };
  if (granted.coversEverything) return { grants: [EVERYTHING], exclusions: denied.groups() };
  const grants: PermissionGroup[] = [];
  const exclusions: PermissionGroup[] = [];
  for (const { slug, actions } of granted.groups()) {
    if (denied.coversSlug(slug)) continue;
    const refused = denied.actionsOf(slug);
    if (actions[0] === WILDCARD) {
      grants.push({ slug, actions });
      if (refused !== undefined) exclusions.push({ slug, actions: [...refused] });
      continue;
    }
    const kept = refused === undefined ? actions : actions.filter((action) => !refused.has(action));
    if (kept.length > 0) grants.push({ slug, actions: kept });
  }
  return { grants, exclusions };
}
