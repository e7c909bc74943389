import { InvalidQueryError } from '../../errors/invalid-query-error.js';
import type { ModelDefinition } from '../../models/define-model.js';
import type { ParsedQuery } from '../parsed-query.js';
import { commaList, documentedList, type QueryParameter } from '../query-parameter.js';

/**
 * `name=a,b`: a selection out of the computed values a model declares, read into `field`; the
 * unknown ones are a 400 naming them all. Documented only for models that declare some.
 */
export function computedNames(
  name: string,
  field: 'aggregates' | 'computedAttributes',
  declared: (model: ModelDefinition) => Record<string, unknown>,
  description: (names: string) => string,
): QueryParameter {
  return {
    name,
    keyed: 'never',
    read([entry], { model }): Partial<ParsedQuery> {
      const names = [...new Set(commaList(entry!))];
      const unknown = names.filter((candidate) => !Object.hasOwn(declared(model), candidate));
      if (unknown.length > 0) throw new InvalidQueryError(`Unknown computed attribute${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`);
      return { [field]: names };
    },
    document(model) {
      const names = Object.keys(declared(model));
      return names.length > 0 ? [documentedList(name, description(names.join(', ')))] : [];
    },
  };
}
