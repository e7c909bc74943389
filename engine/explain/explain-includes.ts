import type { GatehouseAbility } from '../ability/gatehouse-ability.js';
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

/** Refused: `include` is the path up to the first hop refused (`comments.author`), `permission` the `{slug}.index` it needs. */
export type IncludesExplanation =
  | { readonly allowed: true; readonly include: null; readonly permission: null }
  | { readonly allowed: false; readonly include: string; readonly permission: string };

const ALLOWED: IncludesExplanation = { allowed: true, include: null, permission: null };

/**
 * Every hop of every include needs `{included_slug}.index`. Paths are walked in request order and
 * the first hop the caller may not index decides. A relation that does not exist is no refusal
 * but a bad request: `UnknownIncludeError` (400) naming the path up to it.
 */
export function explainIncludes({ ability, rootSlug, includes, relationSlug }: IncludeRequest): IncludesExplanation {
  for (const include of includes) {
    let owner = rootSlug;
    let path = '';
    for (const relation of include.split('.')) {
      path = path === '' ? relation : `${path}.${relation}`;
      const slug = relationSlug(owner, relation);
      if (slug === undefined) throw new UnknownIncludeError(path);
      if (!ability.can(POLICY_ACTIONS.viewAny, slug)) return { allowed: false, include: path, permission: `${slug}.${POLICY_ACTIONS.viewAny}` };
      owner = slug;
    }
  }
  return ALLOWED;
}
