/**
 * CASL's own names for "every action" and "every subject", which the compiled rules use for the
 * permission wildcard `*`, so any app rebuilds them with `createMongoAbility(unpackRules(rules))`
 * and default options. These are CASL's defaults; passing them changes nothing. In exchange no
 * permission may name the action `manage` or the slug `all`.
 */
export const ABILITY_OPTIONS = { anyAction: 'manage', anySubjectType: 'all' } as const;
