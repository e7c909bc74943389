import { InvalidQueryError } from '../../errors/invalid-query-error.js';
import { commaList, documentedList, type QueryParameter } from '../query-parameter.js';
import { parseTypedValue } from '../../models/typed-value.js';

/** `filter[column]=a,b`: rows whose column is any of the values, typed like the column. */
export const filter: QueryParameter = {
  name: 'filter',
  keyed: 'always',
  read(entries, { model }) {
    return {
      filters: entries.map(({ raw, key, value }) => {
        const column = key!;
        if (!model.filters.includes(column)) throw new InvalidQueryError(`Unknown filter: ${column}.`);
        return { column, values: commaList({ raw, key, value }).map((item) => parseTypedValue(raw, model.attributes[column]!, item)) };
      }),
    };
  },
  document: (model) => model.filters.map((name) => documentedList(`filter[${name}]`, 'Comma-separated values, any of which matches.')),
};
