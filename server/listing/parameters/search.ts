import { InvalidQueryError } from '../../errors/invalid-query-error.js';
import { documented, shortValue, type QueryParameter } from '../query-parameter.js';

/** `search=text`: case-insensitive text in any of the model's search columns; blank searches nothing. */
export const search: QueryParameter = {
  name: 'search',
  keyed: 'never',
  read([entry], { model }) {
    const text = entry!.value.trim() === '' ? null : shortValue(entry!.raw, entry!.value);
    if (text !== null && model.search.length === 0) throw new InvalidQueryError(`Model ${model.slug} is not searchable.`);
    return { search: text };
  },
  document: (model) => (model.search.length > 0 ? [documented('search', `Case-insensitive text in ${model.search.join(', ')}.`)] : []),
};
