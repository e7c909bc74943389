import { createConditionCatalog, InvalidConditionError, resolvePolicy, type ConditionCatalog, type PolicyClass, type PolicyRegistry } from '@gatehouse/engine';
import { ConfigError } from '../errors/config-error.js';
import { UnknownModelError } from '../errors/data-errors.js';
import { ModelDefinitionError, type ModelDefinition, type Relation } from './define-model.js';

export interface ModelRegistry {
  readonly models: readonly ModelDefinition[];
  /** The model behind a URL segment; unknown slugs are a 404. */
  get(slug: string): ModelDefinition;
  has(slug: string): boolean;
  /** The related model a relation points at, or undefined when the model has no such relation. */
  relation(model: ModelDefinition, name: string): { relation: Relation; target: ModelDefinition } | undefined;
  /** The model's policy class by naming convention (`posts` → `PostPolicy`), else `ResourcePolicy`. */
  policy(model: ModelDefinition): PolicyClass;
  /** The record conditions the models' policies declare, checked against the models. */
  readonly conditions: ConditionCatalog;
}

/**
 * Collects registrations and their policies, and checks that every relation and owner names a
 * registered model.
 */
export function createModelRegistry(models: readonly ModelDefinition[], policies: PolicyRegistry = {}): ModelRegistry {
  const bySlug = new Map<string, ModelDefinition>();
  for (const model of models) {
    if (bySlug.has(model.slug)) throw new ModelDefinitionError(model.slug, 'registered twice');
    bySlug.set(model.slug, model);
  }
  for (const model of models) {
    for (const [name, relation] of Object.entries(model.relations)) {
      const target = bySlug.get(relation.model);
      if (!target) throw new ModelDefinitionError(model.slug, `relation "${name}" names unknown model ${relation.model}`);
      if (relation.kind === 'hasMany' && !Object.hasOwn(target.attributes, relation.foreignKey)) {
        throw new ModelDefinitionError(model.slug, `relation "${name}" key ${relation.foreignKey} is not an attribute of ${target.slug}`);
      }
    }
    if (model.owner && !bySlug.has(model.owner.model)) throw new ModelDefinitionError(model.slug, `owner names unknown model ${model.owner.model}`);
  }
  const policyClasses = new Map(models.map((model) => [model.slug, resolvePolicy(model.slug, policies)]));
  // A misspelt policy name would silently leave its model with the bare permission checks.
  const resolved = [...policyClasses.values()];
  for (const [name, policy] of Object.entries(policies)) {
    if (!resolved.some((used) => used === policy || used.prototype instanceof policy)) {
      throw new ConfigError(`Policy ${name} serves no registered model (by convention PostPolicy serves posts).`);
    }
  }
  const conditions = conditionCatalog(models, policyClasses);
  return {
    models,
    conditions,
    get(slug) {
      const model = bySlug.get(slug);
      if (!model) throw new UnknownModelError(slug);
      return model;
    },
    has: (slug) => bySlug.has(slug),
    relation(model, name) {
      const relation = Object.hasOwn(model.relations, name) ? model.relations[name] : undefined;
      const target = relation && bySlug.get(relation.model);
      return relation && target ? { relation, target } : undefined;
    },
    policy: (model) => policyClasses.get(model.slug) ?? resolvePolicy(model.slug, policies),
  };
}

/** The policies' record conditions, each checked against its model: a typo stops the start. */
function conditionCatalog(models: readonly ModelDefinition[], policies: ReadonlyMap<string, PolicyClass>): ConditionCatalog {
  try {
    return createConditionCatalog(models, Object.fromEntries(models.map((model) => [model.slug, policies.get(model.slug)?.conditions])));
  } catch (error) {
    if (error instanceof InvalidConditionError) throw new ModelDefinitionError(error.slug, `condition "${error.condition}": ${error.reason}`);
    throw error;
  }
}

/** The slug a relation of a model points to, by slugs, as include authorization walks them. */
export function relationSlugIn(registry: ModelRegistry): (owner: string, relation: string) => string | undefined {
  return (owner, relation) => (registry.has(owner) ? registry.relation(registry.get(owner), relation)?.target.slug : undefined);
}

/** Every registered model's slug; none without a registry. */
export const modelSlugs = (registry: ModelRegistry | undefined): string[] => registry?.models.map((model) => model.slug) ?? [];
