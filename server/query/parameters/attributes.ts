import { documented, type QueryParameter } from '../query-parameter.js';
import { declaredNames } from './computed-names.js';

/** `attributes=a,b` on computed: only these of the model's declared aggregates. */
export const attributes: QueryParameter = {
  name: 'attributes',
  keyed: 'never',
  read: ([entry], { model }) => ({ aggregates: declaredNames(entry!.value, model.computed) }),
  document: (model) => {
    const names = Object.keys(model.computed);
    return names.length > 0 ? [documented('attributes', `Comma-separated aggregates to compute, of: ${names.join(', ')}; all by default.`)] : [];
  },
};
