import type { ForcedSubject, MongoAbility, RawRuleOf } from '@casl/ability';
import { createConditionedAbility } from '../matcher/conditions-matcher.js';
import { ABILITY_OPTIONS } from '../wire/ability-options.js';
import { WILDCARD } from '../wire/wildcard.js';

/**
 * A CASL ability over `(action, resource slug)`; `ability.can('update', 'posts')` is the check,
 * and `ability.can('update', subject('posts', post))` the check on one record.
 */
export type GatehouseAbility = MongoAbility<[string, string | ForcedSubject<string>]>;

export type GatehouseRawRule = RawRuleOf<GatehouseAbility>;

/** The CASL action of a permission's action: `*` is CASL's `manage`. */
export const caslAction = (action: string) => (action === WILDCARD ? ABILITY_OPTIONS.anyAction : action);

/** The CASL subject of a permission's slug: `*` is CASL's `all`. */
export const caslSubject = (slug: string) => (slug === WILDCARD ? ABILITY_OPTIONS.anySubjectType : slug);

/**
 * A CASL ability with default options and Gatehouse's conditions matcher, as `@gatehouse/client`
 * builds one from the packed rules; rules without conditions read the same in any CASL app.
 */
export function createGatehouseAbility(rules: GatehouseRawRule[]): GatehouseAbility {
  return createConditionedAbility<GatehouseAbility>(rules);
}
