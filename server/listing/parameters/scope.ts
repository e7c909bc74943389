import { InvalidQueryError } from '../../errors/invalid-query-error.js';
import type { ModelDefinition, NamedScope } from '../../models/define-model.js';
import type { ListQuery } from '../parsed-query.js';
import { commaList, documented, documentedList, shortValue, type QueryEntry, type QueryParameter } from '../query-parameter.js';
import { parseTypedValue } from '../../models/typed-value.js';

function namedScope(model: ModelDefinition, name: string): NamedScope {
  if (!Object.hasOwn(model.scopes, name)) throw new InvalidQueryError(`Unknown scope: ${name}.`);
  return model.scopes[name]!;
}

/** `scope=a,b` names scopes without arguments; `scope[name]=value` also gives a scope its argument. */
function scopesOf(model: ModelDefinition, { raw, key, value }: QueryEntry): ListQuery['scopes'] {
  if (key === null) {
    return commaList({ raw, key, value }).map((name) => {
      if (namedScope(model, name).argument !== null) throw new InvalidQueryError(`Scope ${name} needs an argument: scope[${name}]=value.`);
      return { name, argument: null };
    });
  }
  if (key === '') throw new InvalidQueryError(`Invalid ${raw}: it names no scope.`);
  const { argument } = namedScope(model, key);
  if (argument === null) {
    if (value !== '') throw new InvalidQueryError(`Scope ${key} takes no argument.`);
    return [{ name: key, argument: null }];
  }
  return [{ name: key, argument: parseTypedValue(raw, argument, shortValue(raw, value)) }];
}

export const scope: QueryParameter = {
  name: 'scope',
  keyed: 'either',
  read: (entries, { model }) => ({ scopes: entries.flatMap((entry) => scopesOf(model, entry)) }),
  document(model) {
    const scopes = Object.entries(model.scopes);
    if (scopes.length === 0) return [];
    const plain = scopes.filter(([, { argument }]) => argument === null).map(([name]) => name);
    return [
      ...(plain.length > 0 ? [documentedList('scope', `Comma-separated scopes, any of: ${plain.join(', ')}; also as scope[name]=.`)] : []),
      ...scopes
        .filter(([, { argument }]) => argument !== null)
        .map(([name, { argument }]) => documented(`scope[${name}]`, `The ${name} scope, with its ${argument} argument.`)),
    ];
  },
};
