import { parsePermissionEntries } from '../permissions/permission-entries.js';
import { subtractPermissions } from '../permissions/subtract-permissions.js';
import { caslAction, caslSubject, createGatehouseAbility, type GatehouseAbility, type GatehouseRawRule } from './gatehouse-ability.js';

/**
 * CASL rules for a permission list (plain permissions and `!`-exclusions, as
 * `effectivePermissions` returns them): one `can` rule per slug, then one `cannot` rule per slug
 * for the exclusions, with CASL's `manage` and `all` for the wildcards. CASL gives later rules
 * priority, so an exclusion always beats the wildcard it is carved from.
 */
export function compileRules(permissions: Iterable<string>): GatehouseRawRule[] {
  const { granted, excluded } = parsePermissionEntries(permissions);
  const { grants, exclusions } = subtractPermissions(granted, excluded);
  return [
    ...grants.map(({ slug, actions }) => ({ action: actions.map(caslAction), subject: caslSubject(slug) })),
    ...exclusions.map(({ slug, actions }) => ({ action: actions.map(caslAction), subject: caslSubject(slug), inverted: true })),
  ];
}

export function compileAbility(permissions: Iterable<string>): GatehouseAbility {
  return createGatehouseAbility(compileRules(permissions));
}
