import { createMongoAbility, type MongoAbility, type RawRuleOf } from '@casl/ability';
import { unpackRules, type PackRule } from '@casl/ability/extra';
import { ABILITY_OPTIONS, type StandardAction } from '@gatehouse/engine/wire';

export type ModelAction = StandardAction;

/** Checked as `can(action, slug)`; custom actions are plain strings too. */
export type GatehouseAbility = MongoAbility<[ModelAction | (string & {}), string]>;

/** The server's engine writes `*` for "every action" and "every resource"; the same options read it back. */
export function buildAbility(packed: PackRule<RawRuleOf<GatehouseAbility>>[] | undefined): GatehouseAbility {
  return createMongoAbility<GatehouseAbility>(packed ? unpackRules(packed) : [], ABILITY_OPTIONS);
}
