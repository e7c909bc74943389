import { Ability, type RawRuleOf } from '@casl/ability';
import { ABILITY_OPTIONS } from '../wire/ability-options.js';

/** A CASL ability over `(action, resource slug)`; `ability.can('update', 'posts')` is the check. */
export type GatehouseAbility = Ability<[string, string]>;

export type GatehouseRawRule = RawRuleOf<GatehouseAbility>;

export function createGatehouseAbility(rules: GatehouseRawRule[]): GatehouseAbility {
  return new Ability<[string, string]>(rules, ABILITY_OPTIONS);
}
