import { createMongoAbility, type MongoAbility, type RawRuleOf } from '@casl/ability';
import { unpackRules, type PackRule } from '@casl/ability/extra';

export type ModelAction = 'index' | 'show' | 'store' | 'update' | 'destroy' | 'trashed' | 'restore' | 'forceDelete';

/** Checked as `can(action, slug)`; `manage` and `all` are CASL's wildcards for `{slug}.*` and `*`. */
export type GatehouseAbility = MongoAbility<[ModelAction | 'manage', string]>;

export function buildAbility(packed: PackRule<RawRuleOf<GatehouseAbility>>[] | undefined): GatehouseAbility {
  return createMongoAbility<GatehouseAbility>(packed ? unpackRules(packed) : []);
}
