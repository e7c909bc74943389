import { BadRequestError } from '../../http/errors/bad-request-error.js';
import { commaList, documented, type QueryParameter } from '../query-parameter.js';
import { parseTypedValue } from '../typed-value.js';

/** `filter[column]=a,b`: rows whose column is any of the values, typed like the column. */
export const filter: QueryParameter = {
  name: 'filter',
  keyed: 'always',
  read(entries, { model }) {
    return {
      filters: entries.map(({ raw, key, value }) => {
        const column = key!;
        if (!model.filters.includes(column)) throw new BadRequestError(`Unknown filter: ${column}.`);
        return { column, values: commaList({ raw, key, value }).map((item) => parseTypedValue(raw, model.attributes[column]!, item)) };
      }),
    };
  },
  document: (model) => model.filters.map((name) => documented(`filter[${name}]`, 'Comma-separated values, any of which matches.')),
};
