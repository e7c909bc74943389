import type { ZodType } from 'zod';
import { optionProblem } from '../errors/option-problem.js';
import { inconsistency } from './model-consistency.js';
import { ModelDefinitionError } from './model-definition-error.js';
import { modelOptionsSchema } from './model-options-schema.js';
import type { ModelDefinition, ModelOptions } from './model-types.js';

// The public names of a model registration, where an application imports them from.
export type { AttributeType } from './attribute-types.js';
export type { Aggregate, ComputedAttribute, ModelDefinition, ModelOptions, NamedScope, Relation, Scope, ScopeContext, ScopeWithArgument } from './model-types.js';
export { ModelDefinitionError } from './model-definition-error.js';
export { MAX_PER_PAGE } from './request-limits.js';

function updateSchema(create: ZodType): ZodType {
  const partial = (create as { partial?: () => ZodType }).partial;
  return typeof partial === 'function' ? partial.call(create) : create;
}

/**
 * Checks a registration once, at startup, and fills in its defaults: every identifier that can
 * reach SQL must be a plain name declared here, so request input is only ever matched against
 * this whitelist. A problem is a ModelDefinitionError naming the model and the option.
 */
export function defineModel(options: ModelOptions): ModelDefinition {
  const given = (options as { slug?: unknown } | null)?.slug;
  const slug = typeof given === 'string' ? given : '(without a slug)';
  const parsed = modelOptionsSchema.safeParse(options);
  if (!parsed.success) throw new ModelDefinitionError(slug, optionProblem(parsed.error, options));
  const { validation, ...checked } = parsed.data;
  const definition: ModelDefinition = {
    ...checked,
    table: checked.table ?? slug.replaceAll('-', '_'),
    attributes: { id: 'integer', ...checked.attributes },
    owner: checked.owner,
    authorColumn: checked.authorColumn,
    recordScope: checked.recordScope,
    validation: validation && { create: validation.create, update: validation.update ?? updateSchema(validation.create) },
  };
  const problem = inconsistency(definition);
  if (problem) throw new ModelDefinitionError(slug, problem);
  return Object.freeze(definition);
}
