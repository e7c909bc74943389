import { documented, type QueryParameter } from '../query-parameter.js';
import { declaredNames } from './computed-names.js';

/** `computed_attributes=a,b`: the model's per-record computed attributes to add to each record. */
export const computedAttributes: QueryParameter = {
  name: 'computed_attributes',
  keyed: 'never',
  read: ([entry], { model }) => ({ computedAttributes: declaredNames(entry!.value, model.computedAttributes) }),
  document: (model) => {
    const names = Object.keys(model.computedAttributes);
    return names.length > 0 ? [documented('computed_attributes', `Comma-separated computed attributes to add: ${names.join(', ')}.`)] : [];
  },
};
