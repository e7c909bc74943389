import { WILDCARD } from './wildcard.js';

/**
 * CASL's own wildcards are `manage` and `all`, which are legal custom action and slug names
 * here; `*` can never be a concrete name, so it is the only safe choice. Whoever rebuilds an
 * ability from packed rules (the server, a browser) passes these same options.
 */
export const ABILITY_OPTIONS = { anyAction: WILDCARD, anySubjectType: WILDCARD } as const;
