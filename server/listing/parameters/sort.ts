import { InvalidQueryError } from '../../errors/invalid-query-error.js';
import { commaList, documentedList, type QueryParameter } from '../query-parameter.js';

/** `sort=-a,b`: the order of the rows; an empty value keeps the model's default order. */
export const sort: QueryParameter = {
  name: 'sort',
  keyed: 'never',
  read([entry], { model }) {
    const order = commaList(entry!).map((item) => {
      const column = item.replace(/^-/, '');
      if (column === '') throw new InvalidQueryError(`Invalid sort "${item}": it names no field.`);
      if (!model.sorts.includes(column)) throw new InvalidQueryError(`Unknown sort: ${column}.`);
      return { column, direction: item.startsWith('-') ? ('desc' as const) : ('asc' as const) };
    });
    return order.length > 0 ? { sort: order } : {};
  },
  document: (model) =>
    model.sorts.length > 0 ? [documentedList('sort', `Comma-separated; prefix - for descending. One of: ${model.sorts.join(', ')}.`)] : [],
};
