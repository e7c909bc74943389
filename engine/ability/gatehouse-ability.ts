import { createMongoAbility, type MongoAbility, type RawRuleOf } from '@casl/ability';
import { ABILITY_OPTIONS } from '../wire/ability-options.js';
import { WILDCARD } from '../wire/wildcard.js';

/** A CASL ability over `(action, resource slug)`; `ability.can('update', 'posts')` is the check. */
export type GatehouseAbility = MongoAbility<[string, string]>;

export type GatehouseRawRule = RawRuleOf<GatehouseAbility>;

/** The CASL action of a permission's action: `*` is CASL's `manage`. */
export const caslAction = (action: string) => (action === WILDCARD ? ABILITY_OPTIONS.anyAction : action);

/** The CASL subject of a permission's slug: `*` is CASL's `all`. */
export const caslSubject = (slug: string) => (slug === WILDCARD ? ABILITY_OPTIONS.anySubjectType : slug);

/** A plain CASL ability with default options, as any app builds one from the packed rules. */
export function createGatehouseAbility(rules: GatehouseRawRule[]): GatehouseAbility {
  return createMongoAbility<GatehouseAbility>(rules);
}
