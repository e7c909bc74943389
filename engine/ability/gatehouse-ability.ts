import { Ability, type RawRuleOf } from '@casl/ability';
import { WILDCARD } from '../permissions/parse-permission.js';

/** A CASL ability over `(action, resource slug)`; `ability.can('update', 'posts')` is the check. */
export type GatehouseAbility = Ability<[string, string]>;

export type GatehouseRawRule = RawRuleOf<GatehouseAbility>;

/**
 * CASL's own wildcards are `manage` and `all`, which are legal custom action and slug names
 * here; `*` can never be a concrete name, so it is the only safe choice. A browser rebuilding an
 * ability from packed rules must pass these same options.
 */
export const ABILITY_OPTIONS = { anyAction: WILDCARD, anySubjectType: WILDCARD } as const;

export function createGatehouseAbility(rules: GatehouseRawRule[]): GatehouseAbility {
  return new Ability<[string, string]>(rules, ABILITY_OPTIONS);
}
