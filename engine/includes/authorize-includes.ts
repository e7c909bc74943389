import type { GatehouseAbility } from '../ability/gatehouse-ability.js';
import { ForbiddenIncludeError } from '../errors/forbidden-include-error.js';
import { UnknownIncludeError } from '../errors/unknown-include-error.js';
import { POLICY_ACTIONS } from '../wire/standard-actions.js';

export interface IncludeRequest {
  readonly ability: GatehouseAbility;
  /** The slug of the resource the request is for. */
  readonly rootSlug: string;
  /** Dotted relation paths, as `parseIncludeParam` returns them. */
  readonly includes: readonly string[];
  /** The slug of the resource `relationName` of `ownerSlug` points to; `undefined` if there is none. */
  readonly relationSlug: (ownerSlug: string, relationName: string) => string | undefined;
}

/**
 * Every hop of every include needs `{included_slug}.index`. Paths are walked in request order and
 * the first hop that fails decides: `UnknownIncludeError` (400) for a relation that does not
 * exist, `ForbiddenIncludeError` (403) for one the caller may not index, each naming the path up
 * to that hop.
 */
export function authorizeIncludes({ ability, rootSlug, includes, relationSlug }: IncludeRequest): void {
  for (const include of includes) {
    let owner = rootSlug;
    let path = '';
    for (const relation of include.split('.')) {
      path = path === '' ? relation : `${path}.${relation}`;
      const slug = relationSlug(owner, relation);
      if (slug === undefined) throw new UnknownIncludeError(path);
      if (!ability.can(POLICY_ACTIONS.viewAny, slug)) throw new ForbiddenIncludeError(path);
      owner = slug;
    }
  }
}
