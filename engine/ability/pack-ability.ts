import { packRules, unpackRules, type PackRule } from '@casl/ability/extra';
import { createGatehouseAbility, type GatehouseAbility, type GatehouseRawRule } from './gatehouse-ability.js';

export type PackedRules = PackRule<GatehouseRawRule>[];

/** The ability's rules in CASL's compact JSON form, for `GET /user-role` and the browser. */
export function packAbilityRules(ability: GatehouseAbility): PackedRules {
  return packRules(ability.rules);
}

/**
 * The inverse of `packAbilityRules`. `@gatehouse/client` does the same with
 * `createMongoAbility(unpackRules(rules), ABILITY_OPTIONS)`.
 */
export function unpackAbility(rules: PackedRules): GatehouseAbility {
  return createGatehouseAbility(unpackRules(rules));
}
