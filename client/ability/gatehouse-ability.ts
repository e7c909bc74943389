import { createMongoAbility, type MongoAbility, type RawRuleOf } from '@casl/ability';
import { unpackRules, type PackRule } from '@casl/ability/extra';
import type { StandardAction } from '@gatehouse/engine/wire';

export type ModelAction = StandardAction;

/** Checked as `can(action, slug)`; custom actions are plain strings too. */
export type GatehouseAbility = MongoAbility<[ModelAction | (string & {}), string]>;

export type PackedRules = PackRule<RawRuleOf<GatehouseAbility>>[];

/** The rules of the packed form the server answers; none while it has not answered. */
export function unpackedRules(packed: PackedRules | undefined): RawRuleOf<GatehouseAbility>[] {
  return packed ? unpackRules(packed) : [];
}

/** The server writes CASL's own `manage` and `all` for its wildcards, so CASL's defaults read them back. */
export function buildAbility(packed?: PackedRules): GatehouseAbility {
  return createMongoAbility<GatehouseAbility>(unpackedRules(packed));
}
