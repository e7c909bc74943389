import type { ForcedSubject, MongoAbility, RawRuleOf } from '@casl/ability';
import { unpackRules, type PackRule } from '@casl/ability/extra';
import { createConditionedAbility } from '@gatehouse/engine/matcher';
import type { StandardAction } from '@gatehouse/engine/wire';

export type ModelAction = StandardAction;

/**
 * Checked as `can(action, slug)`, or on a record as `can(action, subject(slug, record))`, which
 * reads the record conditions the server compiled into the rules; custom actions are plain strings too.
 */
export type GatehouseAbility = MongoAbility<[ModelAction | (string & {}), string | ForcedSubject<string>]>;

export type PackedRules = PackRule<RawRuleOf<GatehouseAbility>>[];

/** Per model, the model-level actions (index, store, trashed) as the server's policies decide them. */
export type ModelAbilities = Record<string, Record<string, boolean>>;

/** The rules of the packed form the server answers; none while it has not answered. */
export function unpackedRules(packed: PackedRules | undefined): RawRuleOf<GatehouseAbility>[] {
  return packed ? unpackRules(packed) : [];
}

/**
 * The permission rules, then the policies' model-level answers as rules of their own: CASL lets a
 * later rule win, so `can('store', 'posts')` reads the policy (a viewer granted `posts.store` still
 * may not create posts). An allowed action the permission rules already allow gets no rule of its
 * own: an unconditioned one would win over their record conditions, and `can('index', post)` must
 * say whether the post is in the list (`posts.index:visible`), not that the list may be read.
 */
export function abilityRules(packed: PackedRules | undefined, abilities: ModelAbilities | undefined): RawRuleOf<GatehouseAbility>[] {
  const rules = unpackedRules(packed);
  const permitted = createConditionedAbility<GatehouseAbility>(rules);
  const decided = Object.entries(abilities ?? {}).flatMap(([subject, actions]) =>
    Object.entries(actions)
      .filter(([action, allowed]) => !allowed || !permitted.can(action, subject))
      .map(([action, allowed]) => ({ action, subject, inverted: !allowed })),
  );
  return [...rules, ...decided];
}

/**
 * The server writes CASL's own `manage` and `all` for its wildcards, so CASL's defaults read them
 * back; record conditions need the engine's conditions matcher (and, or, not, relations).
 */
export function buildAbility(packed?: PackedRules): GatehouseAbility {
  return createConditionedAbility<GatehouseAbility>(unpackedRules(packed));
}
