import { createMongoAbility, type MongoAbility, type RawRuleOf } from '@casl/ability';
import { unpackRules, type PackRule } from '@casl/ability/extra';

export type ModelAction = 'index' | 'show' | 'store' | 'update' | 'destroy' | 'trashed' | 'restore' | 'forceDelete';

/** Checked as `can(action, slug)`; custom actions are plain strings too. */
export type GatehouseAbility = MongoAbility<[ModelAction | (string & {}), string]>;

/**
 * The server's engine writes `*` for "every action" and "every resource" (CASL's own `manage`
 * and `all` are legal resource and action names there), so the same wildcards are set here.
 */
export function buildAbility(packed: PackRule<RawRuleOf<GatehouseAbility>>[] | undefined): GatehouseAbility {
  return createMongoAbility<GatehouseAbility>(packed ? unpackRules(packed) : [], { anyAction: '*', anySubjectType: '*' });
}
