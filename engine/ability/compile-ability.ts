import { EMPTY_CATALOG, type ConditionCatalog } from '../conditions/condition-catalog.js';
import { conditionToCasl } from '../conditions/condition-to-casl.js';
import { conditionOf } from '../conditions/access-plan.js';
import { NO_CONTEXT, type ConditionContext } from '../conditions/resolve-condition.js';
import { formatPermission, type Permission } from '../permissions/parse-permission.js';
import { EXCLUSION_PREFIX, parsePermissionEntries } from '../permissions/permission-entries.js';
import { subtractPermissions } from '../permissions/subtract-permissions.js';
import { caslAction, caslSubject, createGatehouseAbility, type GatehouseAbility, type GatehouseRawRule } from './gatehouse-ability.js';

/** What conditioned permissions compile against: the policies' conditions and the caller's facts. */
export interface RuleConditions {
  readonly catalog: ConditionCatalog;
  readonly context: ConditionContext;
}

const NO_CONDITIONS: RuleConditions = { catalog: EMPTY_CATALOG, context: NO_CONTEXT };

/**
 * CASL rules for a permission list (plain permissions and `!`-exclusions, as
 * `effectivePermissions` returns them): one `can` rule per slug, one per conditioned grant (one
 * per alternative of its condition's top-level `or`), then one `cannot` rule per slug for the
 * exclusions and one per conditioned exclusion (likewise), with CASL's
 * `manage` and `all` for the wildcards. CASL gives later rules priority, so an exclusion always
 * beats the grant it is carved from: a record is allowed when a grant matches it and no
 * exclusion does. A conditioned rule's `reason` is its permission, so a client can say which.
 */
export function compileRules(permissions: Iterable<string>, conditions: RuleConditions = NO_CONDITIONS): GatehouseRawRule[] {
  const { granted, excluded } = parsePermissionEntries(permissions);
  const { grants, exclusions } = subtractPermissions(granted.patterns, excluded.patterns);
  const conditioned = (permission: Permission, inverted: boolean): GatehouseRawRule[] => {
    const node = conditionOf(permission, conditions.catalog, conditions.context, inverted);
    if (node.op === 'false') return [];
    const reason = (inverted ? EXCLUSION_PREFIX : '') + formatPermission(permission);
    const rule: GatehouseRawRule = { action: permission.action, subject: permission.slug, reason, ...(inverted ? { inverted } : {}) };
    const shape = conditions.catalog.shape(permission.slug);
    if (node.op === 'true' || shape === undefined) return [rule];
    // A rule per alternative of a top-level `or`: CASL joins rules by `or` with its default options, which read no `$or`.
    const alternatives = node.op === 'or' ? node.conditions : [node];
    return alternatives.map((alternative) => ({ ...rule, conditions: conditionToCasl(alternative, shape, conditions.catalog.shape) }));
  };
  return [
    ...grants.map(({ slug, actions }) => ({ action: actions.map(caslAction), subject: caslSubject(slug) })),
    ...granted.conditioned.flatMap((permission) => conditioned(permission, false)),
    ...exclusions.map(({ slug, actions }) => ({ action: actions.map(caslAction), subject: caslSubject(slug), inverted: true })),
    ...excluded.conditioned.flatMap((permission) => conditioned(permission, true)),
  ];
}

export function compileAbility(permissions: Iterable<string>, conditions?: RuleConditions): GatehouseAbility {
  return createGatehouseAbility(compileRules(permissions, conditions));
}
