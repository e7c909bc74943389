import { InvalidConditionError } from '../errors/invalid-condition-error.js';
import type { ConditionNode } from './condition-tree.js';
import type { RecordConditions } from './declared-condition.js';
import type { ModelShape, ShapeLookup } from './model-shape.js';
import { ConditionProblem, normalizeCondition } from './normalize-condition.js';

/** Every model's named record conditions, checked, with the shapes their compilers read. */
export interface ConditionCatalog {
  /** The condition `name` of `slug`; undefined when the policy declares none by that name. */
  condition(slug: string, name: string): ConditionNode | undefined;
  /** The names `slug`'s policy declares, in declaration order. */
  names(slug: string): readonly string[];
  readonly shape: ShapeLookup;
}

/**
 * Checks each model's declared conditions against its shape (see normalizeCondition), once,
 * when the models are registered: the first fault throws InvalidConditionError naming it.
 */
export function createConditionCatalog(shapes: readonly ModelShape[], declared: Readonly<Record<string, RecordConditions | undefined>>): ConditionCatalog {
  const bySlug = new Map(shapes.map((shape) => [shape.slug, shape]));
  const shape: ShapeLookup = (slug) => bySlug.get(slug);
  const conditions = new Map<string, Map<string, ConditionNode>>();
  for (const [slug, named] of Object.entries(declared)) {
    const model = bySlug.get(slug);
    if (named === undefined || model === undefined) continue;
    const checked = new Map<string, ConditionNode>();
    for (const [name, condition] of Object.entries(named)) {
      if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name)) throw new InvalidConditionError(slug, name, 'a condition name is letters, digits, _ and -, starting with a letter or digit');
      try {
        checked.set(name, Object.freeze(normalizeCondition(condition, model, shape)));
      } catch (error) {
        if (error instanceof ConditionProblem) throw new InvalidConditionError(slug, name, error.message);
        throw error;
      }
    }
    conditions.set(slug, checked);
  }
  return {
    condition: (slug, name) => conditions.get(slug)?.get(name),
    names: (slug) => [...(conditions.get(slug)?.keys() ?? [])],
    shape,
  };
}

export const EMPTY_CATALOG: ConditionCatalog = createConditionCatalog([], {});
