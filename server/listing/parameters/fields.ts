import { InvalidQueryError } from '../../errors/invalid-query-error.js';
import type { ModelDefinition } from '../../models/define-model.js';
import type { ModelRegistry } from '../../models/model-registry.js';
import { commaList, documentedList, type QueryParameter } from '../query-parameter.js';

/** Models an include list reaches, so `fields[...]` may name them; an unknown hop reaches nothing. */
function reachableModels(registry: ModelRegistry, model: ModelDefinition, includes: readonly string[]): Map<string, ModelDefinition> {
  const reachable = new Map([[model.slug, model]]);
  for (const path of includes) {
    let current: ModelDefinition | undefined = model;
    for (const hop of path.split('.')) {
      current = current && registry.relation(current, hop)?.target;
      if (current) reachable.set(current.slug, current);
    }
  }
  return reachable;
}

/**
 * `fields[slug]=a,b`: the attributes to return for the endpoint's model or an included one;
 * `fields=a,b` is the same for the endpoint's own model. Reads after `include`, which decides
 * which models are reachable.
 */
export const fields: QueryParameter = {
  name: 'fields',
  keyed: 'either',
  read(entries, { registry, model }, { includes }) {
    const reachable = reachableModels(registry, model, includes);
    const requested: Record<string, string[]> = {};
    for (const entry of entries) {
      const slug = entry.key ?? model.slug;
      const target = reachable.get(slug);
      if (!target) throw new InvalidQueryError(`Unknown model in fields: ${slug}.`);
      if (Object.hasOwn(requested, slug)) throw new InvalidQueryError(`Use either fields or fields[${slug}], not both.`);
      requested[slug] = commaList(entry).map((field) => {
        if (!Object.hasOwn(target.attributes, field) || target.hidden.includes(field)) throw new InvalidQueryError(`Unknown field: ${slug}.${field}.`);
        return field;
      });
    }
    return { fields: requested };
  },
  document: (model) => [
    documentedList('fields', `Comma-separated fields of ${model.slug} to return; the same as fields[${model.slug}].`),
    documentedList(`fields[${model.slug}]`, 'Comma-separated fields to return; fields[relation model] narrows an included model.'),
  ],
};
